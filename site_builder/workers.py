"""The build's worker processes: chunks of work handed over in order, a few chunks ahead.

One set of workers serves the whole build (reading the checks in the collect phase, converting
Markdown in the render phase), forked the first time a chunk is worth handing over: a build with
little to do never starts one.
"""

from __future__ import annotations

import collections
import concurrent.futures
import gc
import itertools
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import TypeVar

K = TypeVar("K")
A = TypeVar("A")
R = TypeVar("R")

PARALLEL_MIN = 200  # items of work below which starting workers costs more than it saves
CHUNK = 64  # items per task: big enough to amortize the hand-over
CHUNKS_AHEAD = 3  # tasks in flight per worker: enough that no worker waits for the next one
MIN_HANDED_OVER = 8  # a job with fewer items than this runs in the build's own process


def default_count() -> int:
    """Workers for this machine: one per core, at most four."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, 4))


def _start_worker() -> None:
    """A worker is forked while the build has cyclic GC paused; it resumes it, so each task's
    Markdown converter (a cycle) is freed, and leaves what it inherited out of every pass."""
    gc.freeze()
    gc.enable()


def chunks(items: Iterable[A]) -> Iterator[list[A]]:
    """`items` in lists of `CHUNK` (the last one shorter), taken lazily."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, CHUNK)):
        yield chunk


class Workers:
    """Up to `count` worker processes for one build; a context manager that stops them."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers (waiting for the tasks they are running); they start again if needed."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def _started(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.count, mp_context=context, initializer=_start_worker
            )
        return self._pool

    def map(
        self,
        work: Callable[[list[A]], R],
        jobs: Iterable[tuple[K, list[A]]],
        total: int,
        local: Callable[[list[A]], R] | None = None,
    ) -> Iterator[tuple[K, R]]:
        """(key, work(items)) for each job of `jobs`, in order.

        `work` must be picklable (a module-level function or a partial of one). `jobs` is read
        only a few jobs ahead of the consumer, so only those jobs' items are held at once. Jobs
        run in this process when there is one worker, when `total` (the most items `jobs` can
        hold) is below `PARALLEL_MIN`, or when a job has fewer than `MIN_HANDED_OVER` items;
        there `local` does the work, when given (it may reuse what is costly to build).
        """
        here_work = local or work
        ahead: collections.deque[tuple[K, concurrent.futures.Future[R] | R]] = collections.deque()
        pending = iter(jobs)
        limit = self.count * CHUNKS_AHEAD
        here = self.count <= 1 or total < PARALLEL_MIN
        while True:
            while len(ahead) < limit and (job := next(pending, None)) is not None:
                key, items = job
                if here or len(items) < MIN_HANDED_OVER:
                    ahead.append((key, here_work(items)))
                else:
                    ahead.append((key, self._started().submit(work, items)))
            if not ahead:
                return
            key, result = ahead.popleft()
            yield key, (result.result() if isinstance(result, concurrent.futures.Future) else result)
