/** How long and how big each part of the bench runs: the full bench, or the seconds-long CI smoke run. */
export interface Settings {
  readonly name: "full" | "smoke"
  /** A B rounds per figure; figures are medians over rounds. */
  readonly rounds: number
  readonly warmupSeconds: number
  readonly seconds: {
    readonly c1: number
    readonly c50: number
    readonly streamLoad: number
    readonly toolLoop: number
  }
  /** Concurrency of the streaming load run that gives CPU per streamed answer. */
  readonly streamConcurrency: number
  /** Sequential streamed requests per round for time to first byte and to [DONE]. */
  readonly streamProbes: number
  readonly openStreams: {
    readonly streams: number
    readonly batch: number
    readonly batchIntervalMs: number
    readonly slowChunks: number
    readonly slowChunkDelayMs: number
    readonly timeoutMs: number
    /** Resumable runs open at once, each kept (issue 23), measured after the plain open streams. */
    readonly resumable: number
  }
}

export const full: Settings = {
  name: "full",
  rounds: 3,
  warmupSeconds: 3,
  seconds: { c1: 4, c50: 4, streamLoad: 3, toolLoop: 3 },
  streamConcurrency: 10,
  streamProbes: 400,
  openStreams: {
    streams: 10_000,
    batch: 20,
    batchIntervalMs: 100,
    slowChunks: 20,
    slowChunkDelayMs: 4_000,
    timeoutMs: 200_000,
    resumable: 1_000
  }
}

export const smoke: Settings = {
  name: "smoke",
  rounds: 1,
  warmupSeconds: 0.5,
  seconds: { c1: 0.5, c50: 0.5, streamLoad: 0.5, toolLoop: 0.5 },
  streamConcurrency: 10,
  streamProbes: 30,
  openStreams: {
    streams: 200,
    batch: 100,
    batchIntervalMs: 50,
    slowChunks: 5,
    slowChunkDelayMs: 100,
    timeoutMs: 30_000,
    resumable: 50
  }
}
