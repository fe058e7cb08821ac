/* Live pages (issue 17): a race or debate page left open asks for its published JSON every
   data-intervalo seconds and updates its numbers in place. Progressive enhancement: without this
   script the page is the complete reading it was built from. No inline code, no styles set here
   (the Content-Security-Policy allows only this site's files).
   Numbers are written as site_builder/br_format.py writes them; tests/leitor/test_ao_vivo.py
   compares the two in a browser. */
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

  function pct(valor) {
    return decimal(valor, 2) + "%";
  }

  function inteiro(valor) {
    return decimal(valor, 0);
  }

  function pontos(valor) {
    var arredondado = Math.abs(Number(Math.abs(valor).toFixed(2)));
    return decimal(valor, 2) + (arredondado < 2 ? " ponto" : " pontos");
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

  function hora(instante, fuso) {
    var p = partesData(instante, fuso);
    return p.hour + ":" + p.minute + ":" + p.second;
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
    var el = raiz.querySelector('[data-aviso="' + aviso + '"]');
    if (el) {
      el.hidden = !visivel;
    }
  }

  function numerosNaPagina(padrao) {
    var numeros = [];
    document.querySelectorAll("[data-campo]").forEach(function (el) {
      var achado = padrao.exec(el.getAttribute("data-campo"));
      if (achado) {
        numeros.push(Number(achado[1]));
      }
    });
    return numeros;
  }

  function mesmaLista(a, b) {
    return a.length === b.length && a.every(function (x, i) { return x === b[i]; });
  }

  // --- Race pages: /api/projecao/<race>.json (the model's saida.json) ---

  var fuso = raiz.getAttribute("data-fuso");
  var nomes = JSON.parse(raiz.getAttribute("data-nomes") || "{}");
  var lidaEm = null; // the reading on screen (Date), set by the first answer

  function criterio(dados, id) {
    return (dados.criterios || []).filter(function (c) { return c.id === id; })[0];
  }

  function mudouEstrutura(dados) {
    // What the script cannot redraw: then it asks for a reload instead of showing a half-new page.
    var forecast = dados.forecast || {};
    var naPagina = numerosNaPagina(/^projecao-(\d+)-pct$/);
    var ordem = (forecast.candidatos || []).slice().sort(function (a, b) {
      return b.pct - a.pct || a.numero - b.numero;
    }).map(function (c) { return c.numero; });
    var parcial = ((dados.parcial || {}).candidatos || []).slice().sort(function (a, b) {
      return b.votos - a.votos || a.numero - b.numero;
    }).map(function (c) { return c.numero; });
    var tendencia = document.querySelector('[data-campo="projecao-tendencia"]');
    var tendenciaDefinida = typeof forecast.tendencia === "number";
    return Boolean(dados.publicavel) !== Boolean(document.querySelector('[data-bloco="projecao"]')) ||
      (dados.publicavel && !mesmaLista(ordem.slice(0, naPagina.length), naPagina)) ||
      !mesmaLista(parcial, numerosNaPagina(/^parcial-(\d+)-votos$/)) ||
      Boolean(forecast.definido_matematicamente) !== Boolean(document.querySelector('[data-campo="projecao-definido"]')) ||
      (tendencia !== null && tendenciaDefinida !== (tendencia.getAttribute("data-valor") !== "indefinido")) ||
      (tendenciaDefinida && !(String(forecast.tendencia) in nomes)) ||
      JSON.stringify(dados.criterios_nao_atendidos || []) !== raiz.getAttribute("data-nao-atendidos");
  }

  function atualizarProjecao(dados) {
    var forecast = dados.forecast || {};
    var parcial = dados.parcial || {};
    escrever("apurado", pct(dados.apurado_pct), dados.apurado_pct);
    escrever("projecao-apurado", pct(dados.apurado_pct), dados.apurado_pct);
    (forecast.candidatos || []).forEach(function (c) {
      var p = "projecao-" + c.numero;
      escrever(p + "-pct", pct(c.pct), c.pct);
      escrever(p + "-faixa", "±" + pontos(c.faixa), c.faixa);
      escrever(p + "-min", pct(c.intervalo[0]), c.intervalo[0]);
      escrever(p + "-max", pct(c.intervalo[1]), c.intervalo[1]);
      escrever(p + "-votos", inteiro(c.votos_projetados), c.votos_projetados);
    });
    if (typeof forecast.tendencia === "number") {
      escrever("projecao-tendencia-nome", nomes[String(forecast.tendencia)]);
      campos("projecao-tendencia").forEach(function (el) { el.setAttribute("data-valor", String(forecast.tendencia)); });
    }
    if (typeof forecast.margem === "number") {
      escrever("projecao-margem", pontos(Math.abs(forecast.margem)), Math.abs(forecast.margem));
    }
    if (typeof forecast.faixa_margem === "number") {
      escrever("projecao-faixa-margem", decimal(forecast.faixa_margem, 2), forecast.faixa_margem);
    }
    if (forecast.erro_medio_esperado) {
      escrever("projecao-erro-projecao", "±" + pontos(forecast.erro_medio_esperado.projecao), forecast.erro_medio_esperado.projecao);
      escrever("projecao-erro-parcial", "±" + pontos(forecast.erro_medio_esperado.parcial), forecast.erro_medio_esperado.parcial);
    }
    (parcial.candidatos || []).forEach(function (c) {
      escrever("parcial-" + c.numero + "-votos", inteiro(c.votos), c.votos);
      escrever("parcial-" + c.numero + "-pct", pct(c.pct), c.pct);
    });
    if (typeof parcial.validos === "number") {
      escrever("parcial-validos", inteiro(parcial.validos), parcial.validos);
    }
    if (parcial.eleitorado && typeof parcial.eleitorado_totalizado === "number") {
      var apurado = Math.round(1e6 * parcial.eleitorado_totalizado / parcial.eleitorado) / 1e4;
      escrever("parcial-apurado", pct(apurado), apurado);
    }
  }

  function idadeDosDados(dados) {
    // Age of the oldest TSE file now: its age at the reading plus the time since the reading.
    var c = criterio(dados, raiz.getAttribute("data-criterio"));
    if (!c || typeof c.limite !== "number" || lidaEm === null) {
      return;
    }
    var desdeLeitura = (Date.now() - lidaEm.getTime()) / 60000;
    var idade = (typeof c.valor === "number" ? c.valor : 0) + desdeLeitura;
    escrever("idade", " · há " + minutos(desdeLeitura));
    escrever("atraso-idade", minutos(idade));
    escrever("atraso-limite", minutos(c.limite));
    mostrar("atraso", idade > c.limite);
  }

  var ultimos = null;

  function receberProjecao(dados) {
    var instante = new Date(dados.agora);
    var paginaEm = new Date(document.querySelector('[data-campo="atualizado"]').getAttribute("datetime"));
    lidaEm = paginaEm;
    ultimos = dados;
    if (instante.getTime() !== paginaEm.getTime()) {
      if (mudouEstrutura(dados)) {
        escrever("recarregar-hora", hora(instante, fuso));
        mostrar("recarregar", true);
        mostrar("nova", false);
      } else {
        lidaEm = instante;
        atualizarProjecao(dados);
        campos("atualizado").forEach(function (el) {
          el.textContent = dataHora(instante, fuso);
          el.setAttribute("datetime", instante.toISOString().replace(".000Z", "Z"));
        });
        escrever("nova-hora", hora(instante, fuso));
        mostrar("nova", true);
        mostrar("recarregar", false);
      }
    }
    idadeDosDados(dados);
  }

  // --- Debate pages: the scoreboard JSON (placar.json) ---

  // When the scoreboard on screen last changed: the page's time until an answer brings atualizado_em.
  var horaDoPlacar = document.querySelector('[data-campo="atualizado"]');
  var placarEm = horaDoPlacar ? new Date(horaDoPlacar.getAttribute("datetime")) : null;

  function idadeDoPlacar() {
    // The limit comes from the page (site_builder/ao_vivo.py), in minutes.
    var limite = Number(raiz.getAttribute("data-limite"));
    if (placarEm === null || !limite) {
      return;
    }
    var idade = (Date.now() - placarEm.getTime()) / 60000;
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
  var receber = tipo === "debate" ? receberPlacar : receberProjecao;
  var envelhecer = tipo === "debate" ? idadeDoPlacar : function () {
    if (ultimos !== null) {
      idadeDosDados(ultimos);
    }
  };
  var segundos = Number(raiz.getAttribute("data-intervalo")) || 30;

  function buscar() {
    fetch(raiz.getAttribute("data-api"), { cache: "no-store", credentials: "same-origin" })
      .then(function (resposta) {
        if (!resposta.ok) {
          throw new Error("HTTP " + resposta.status);
        }
        return resposta.json();
      })
      .then(receber)
      .catch(function () {
        // Offline or a bad answer: keep what is on screen; the age line and the warning still move.
        envelhecer();
      });
  }

  buscar();
  window.setInterval(buscar, segundos * 1000);
})();
