/* Live pages (issues 17 and 21). Progressive enhancement: without this script every page is the
   complete reading it was built from. No inline code, no styles set here (the Content-Security-Policy
   allows only this site's files).

   Race pages, and the home page and the races' list (their headlines), ("one renderer"): every
   data-intervalo seconds the page asks for its own built HTML,
   with If-None-Match (a 304 means nothing changed), parses it with DOMParser and swaps each
   data-regiao part whose built HTML changed, so every figure is exactly what the Python build
   renders (leader changes and publishability changes included). A reload is asked for, in one line
   at the top, only when the page's structure marker (data-estrutura) differs. Nodes that DOMParser
   made never run scripts.

   Debate pages: the scoreboard's numbers from placar.json, written as site_builder/br_format.py
   writes them (tests/leitor/test_ao_vivo.py compares the two in a browser).

   On both, "now" is the server's clock (the answers' Date header), so a replayed night (eleicoes
   demo) ages its data on the night's clock, not on today's. */
(function () {
  "use strict";

  var raiz = document.querySelector("[data-ao-vivo]");
  if (!raiz || !window.fetch) {
    return;
  }

  // --- Brazilian number and time formats (the same as br_format.py) ---

  function decimal(valor, casas) {
    // Python's format(): the exact binary value, rounded half to even on an exact tie.
    var negativo = valor < 0;
    var abs = Math.abs(valor);
    var fator = Math.pow(10, casas);
    var escala = abs * fator;
    var texto = abs.toFixed(casas);
    if (escala % 1 === 0.5 && escala / fator === abs && Math.floor(escala) % 2 === 0) {
      texto = (Math.floor(escala) / fator).toFixed(casas);
    }
    var partes = texto.split(".");
    var inteiro = partes[0].replace(/\B(?=(\d{3})+(?!\d))/g, ".");
    return (negativo && Number(texto) !== 0 ? "-" : "") + inteiro + (partes.length > 1 ? "," + partes[1] : "");
  }

  function partesData(instante, fuso) {
    var partes = {};
    new Intl.DateTimeFormat("pt-BR", {
      timeZone: fuso, day: "numeric", month: "long", year: "numeric",
      hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23"
    }).formatToParts(instante).forEach(function (p) { partes[p.type] = p.value; });
    return partes;
  }

  function dataHora(instante, fuso) {
    var p = partesData(instante, fuso);
    return p.day + " de " + p.month + " de " + p.year + ", " + p.hour + ":" + p.minute + ":" + p.second;
  }

  function minutos(valor) {
    return valor < 1 ? "menos de 1 min" : Math.floor(valor) + " min";
  }

  // --- The page ---

  function campos(nome) {
    return document.querySelectorAll('[data-campo="' + nome + '"]');
  }

  function escrever(nome, texto, valor) {
    campos(nome).forEach(function (el) {
      el.textContent = texto;
      if (valor !== undefined && el.hasAttribute("data-valor")) {
        el.setAttribute("data-valor", String(valor));
      }
    });
  }

  function mostrar(aviso, visivel) {
    document.querySelectorAll('[data-aviso="' + aviso + '"]').forEach(function (el) {
      el.hidden = !visivel;
    });
  }

  // --- Race pages: the page's own built HTML, swapped region by region ---

  var etag = null; // of the last 200 answer: sent back as If-None-Match
  var desvio = 0; // the server's clock minus the browser's (ms), from the answers' Date header
  var fontes = {}; // region name -> the built HTML it shows (the DOM itself is changed by this script)

  function agora() {
    // "Now" on the server's clock (both halves), the browser's clock until an answer brings a Date.
    return Date.now() + desvio;
  }

  function lerRelogio(resposta) {
    var data = Date.parse(resposta.headers.get("Date") || "");
    if (!isNaN(data)) {
      desvio = data - Date.now();
    }
  }

  function regioes(doc) {
    var achadas = {};
    doc.querySelectorAll("[data-regiao]").forEach(function (el) {
      achadas[el.getAttribute("data-regiao")] = el;
    });
    return achadas;
  }

  function leituraNa(doc) {
    var el = doc.querySelector('[data-campo="atualizado"]');
    return el ? el.getAttribute("data-leitura") : null;
  }

  function idadeDosDados() {
    // Age of the oldest TSE file now: its age at the reading plus the time since the reading.
    var el = document.querySelector('[data-campo="atualizado"]');
    if (!el) {
      return;
    }
    var lidaEm = Date.parse(el.getAttribute("datetime"));
    var idadeNaLeitura = el.getAttribute("data-idade-min");
    var limite = el.getAttribute("data-limite-min");
    if (isNaN(lidaEm)) {
      return;
    }
    var desdeLeitura = Math.max(0, (agora() - lidaEm) / 60000);
    escrever("idade", " · há " + minutos(desdeLeitura));
    if (limite === "" || limite === null) {
      return;
    }
    var idade = (idadeNaLeitura === "" ? 0 : Number(idadeNaLeitura)) + desdeLeitura;
    escrever("atraso-idade", minutos(idade));
    escrever("atraso-limite", minutos(Number(limite)));
    mostrar("atraso", idade > Number(limite));
    mostrar("atraso-curto", idade > Number(limite));
  }

  function chaveDoDetalhe(el) {
    var resumo = el.querySelector("summary");
    return resumo ? resumo.textContent.trim() : "";
  }

  function trocar(velha, nova) {
    // Keep what the reader opened and where the focus was, where the new region has the same thing.
    var abertos = {};
    velha.querySelectorAll("details").forEach(function (d) {
      abertos[chaveDoDetalhe(d)] = d.open;
    });
    var foco = document.activeElement;
    var focoId = foco && velha.contains(foco) ? foco.id || null : null;
    var focoResumo = foco && velha.contains(foco) && foco.tagName === "SUMMARY" ? foco.textContent.trim() : null;
    var copia = document.importNode(nova, true);
    copia.querySelectorAll("details").forEach(function (d) {
      var chave = chaveDoDetalhe(d);
      if (Object.prototype.hasOwnProperty.call(abertos, chave)) {
        d.open = abertos[chave];
      }
    });
    velha.replaceWith(copia);
    var alvo = focoId ? document.getElementById(focoId) : null;
    if (!alvo && focoResumo !== null) {
      copia.querySelectorAll("summary").forEach(function (s) {
        if (s.textContent.trim() === focoResumo) {
          alvo = s;
        }
      });
    }
    if (alvo) {
      alvo.focus({ preventScroll: true });
    }
  }

  function pedirRecarga() {
    mostrar("recarregar", true);
    mostrar("nova", false);
  }

  function receberPagina(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var outra = doc.querySelector("[data-ao-vivo]");
    var novas = regioes(doc);
    var atuais = regioes(document);
    var nomes = Object.keys(atuais).sort().join(",");
    if (!outra || outra.getAttribute("data-estrutura") !== raiz.getAttribute("data-estrutura") ||
        Object.keys(novas).sort().join(",") !== nomes) {
      pedirRecarga();
      return;
    }
    var antes = leituraNa(document);
    Object.keys(atuais).forEach(function (nome) {
      var nova = novas[nome];
      if (nova.innerHTML !== fontes[nome]) {
        fontes[nome] = nova.innerHTML;
        trocar(atuais[nome], nova);
      }
    });
    var depois = leituraNa(document);
    if (depois !== antes) {
      var el = document.querySelector('[data-campo="atualizado"]');
      escrever("nova-hora", el.getAttribute("data-hora") || "");
      mostrar("nova", true);
      document.dispatchEvent(new CustomEvent("ao-vivo:leitura", { detail: depois }));
    }
  }

  function buscarPagina() {
    var cabecalhos = etag ? { "If-None-Match": etag } : {};
    var recebido = null;
    return fetch(window.location.pathname, { cache: "no-store", credentials: "same-origin", headers: cabecalhos })
      .then(function (resposta) {
        lerRelogio(resposta);
        if (resposta.status === 304) {
          return null;
        }
        if (!resposta.ok) {
          throw new Error("HTTP " + resposta.status);
        }
        recebido = resposta.headers.get("ETag");
        return resposta.text();
      })
      .then(function (html) {
        if (html !== null) {
          receberPagina(html);
          etag = recebido;
        }
        idadeDosDados();
      });
  }

  function iniciarCorrida() {
    Object.keys(regioes(document)).forEach(function (nome) {
      fontes[nome] = regioes(document)[nome].innerHTML;
    });
    idadeDosDados();
  }

  // --- Debate pages: the scoreboard JSON (placar.json) ---

  var fuso = raiz.getAttribute("data-fuso");

  // When the scoreboard on screen last changed: the page's time until an answer brings atualizado_em.
  var horaDoPlacar = document.querySelector('[data-campo="atualizado"]');
  var placarEm = horaDoPlacar ? new Date(horaDoPlacar.getAttribute("datetime")) : null;

  function idadeDoPlacar() {
    // The limit comes from the page (site_builder/ao_vivo.py), in minutes.
    var limite = Number(raiz.getAttribute("data-limite"));
    if (placarEm === null || !limite) {
      return;
    }
    var idade = Math.max(0, (agora() - placarEm.getTime()) / 60000);
    escrever("idade", " · há " + minutos(idade));
    escrever("atraso-idade", minutos(idade));
    escrever("atraso-limite", minutos(limite));
    mostrar("atraso", idade > limite);
  }

  function receberHoraPlacar(dados) {
    var instante = new Date(typeof dados.atualizado_em === "string" ? dados.atualizado_em : NaN);
    if (isNaN(instante.getTime())) {
      return;
    }
    placarEm = instante;
    campos("atualizado").forEach(function (el) {
      el.textContent = dataHora(instante, fuso);
      el.setAttribute("datetime", instante.toISOString().replace(".000Z", "Z"));
    });
  }

  function receberPlacar(dados) {
    receberHoraPlacar(dados);
    idadeDoPlacar();
    var mudou = false;
    (dados.candidatos || []).forEach(function (c) {
      var p = "placar-" + c.id;
      var antes = document.querySelector('[data-campo="' + p + '-nota"]');
      if (antes && antes.getAttribute("data-valor") !== String(c.nota)) {
        mudou = true;
      }
      escrever(p + "-nota", typeof c.nota === "number" ? decimal(c.nota, 1) : "sem nota", c.nota);
      Object.keys(c.metricas || {}).forEach(function (id) {
        var m = c.metricas[id];
        escrever(p + "-" + id + "-nota", typeof m.nota === "number" ? decimal(m.nota, 1) : "sem dados", m.nota);
        escrever(p + "-" + id + "-peso", m.sem_dados ? "fora da conta" : decimal(m.peso_efetivo, 0) + "%", m.peso_efetivo);
      });
      escrever(p + "-turnos", String(c.turnos_avaliados || 0), c.turnos_avaliados || 0);
      var segundos = Math.round(c.tempo_fala_s || 0);
      escrever(p + "-tempo", Math.floor(segundos / 60) + ":" + String(segundos % 60).padStart(2, "0"), c.tempo_fala_s);
    });
    var manchete = JSON.stringify(ordenado(dados.manchete || null));
    mostrar("recarregar", mudou || manchete !== raiz.getAttribute("data-manchete"));
  }

  function ordenado(valor) {
    // JSON with sorted keys and no spaces, as site_builder/ao_vivo.py writes the headline it shows.
    if (valor === null || typeof valor !== "object" || Array.isArray(valor)) {
      return valor;
    }
    var saida = {};
    Object.keys(valor).sort().forEach(function (k) { saida[k] = ordenado(valor[k]); });
    return saida;
  }

  // --- The loop ---

  var tipo = raiz.getAttribute("data-ao-vivo");
  var segundos = Number(raiz.getAttribute("data-intervalo")) || 15;
  var buscar;
  var envelhecer;
  if (tipo === "debate") {
    envelhecer = idadeDoPlacar;
    buscar = function () {
      return fetch(raiz.getAttribute("data-api"), { cache: "no-store", credentials: "same-origin" })
        .then(function (resposta) {
          lerRelogio(resposta);
          if (!resposta.ok) {
            throw new Error("HTTP " + resposta.status);
          }
          return resposta.json();
        })
        .then(receberPlacar);
    };
  } else {
    iniciarCorrida();
    envelhecer = idadeDosDados;
    buscar = buscarPagina;
  }

  function ciclo() {
    // Offline or a bad answer: keep what is on screen; the age line and the warning still move.
    buscar().catch(envelhecer).then(function () {
      window.setTimeout(ciclo, segundos * 1000);
    });
  }

  ciclo();
})();
