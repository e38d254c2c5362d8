import { Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.ts"
import { chatProtocolOf } from "../domain/protocols.ts"
import { RedisConnection } from "./RedisConnection.ts"
import { ABANDONED_AFTER_MS, RunStreams, type RunSummary, type StreamStatus } from "./RunStreams.ts"

// Keys: the id's head (a hash: run, key, account, protocol, started, ended, stopped), each run's status (a string) and its chunks (a list, seq =
// index + 1). Every key expires on its own: an hour after the run began, then the retention after its end.
const idKey = (id: string) => `parley:stream:id:${id}`
const statusKey = (run: string) => `parley:stream:status:${run}`
const chunksKey = (run: string) => `parley:stream:chunks:${run}`
// A key's chat ids (a sorted set scored by start), for listing its runs; ids whose head expired are dropped there.
const byKey = (keyId: string) => `parley:stream:key:${keyId}`

// KEYS: id key, the key's ids. ARGV: run, keyId, accountId, ttl ms, status key prefix, chunks key prefix, now,
// id, oldest start still kept, protocol. Returns 0 when taken.
const OPEN = `
local before = redis.call('HMGET', KEYS[1], 'run', 'key')
if before[1] and before[2] ~= ARGV[2] then return 0 end
if before[1] then redis.call('DEL', ARGV[5] .. before[1], ARGV[6] .. before[1]) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'run', ARGV[1], 'key', ARGV[2], 'account', ARGV[3], 'started', ARGV[7], 'protocol', ARGV[10])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SET', ARGV[5] .. ARGV[1], 'running', 'PX', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[8])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[9])
redis.call('PEXPIRE', KEYS[2], ARGV[7] - ARGV[9])
return 1`

// KEYS: status, chunks. ARGV: texts. Appends only while the run is kept (its status key lives).
const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], unpack(ARGV))
redis.call('PEXPIRE', KEYS[2], redis.call('PTTL', KEYS[1]))
return 1`

// KEYS: status, chunks, id. ARGV: status, retention ms, run, now, stopped (0|1). The id's head follows its run's
// retention.
const END = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
if redis.call('HGET', KEYS[3], 'run') == ARGV[3] then
  redis.call('HSET', KEYS[3], 'ended', ARGV[4], 'stopped', ARGV[5])
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
end
return 1`

// KEYS: the key's ids. ARGV: id key prefix, status key prefix, limit. Newest first: {id, status, stopped, started,
// ended, protocol} per run still kept; ids no longer kept leave the set.
const RUNS = `
local out = {}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, -1)) do
  local head = redis.call('HMGET', ARGV[1] .. id, 'run', 'stopped', 'started', 'ended', 'protocol')
  local status = head[1] and redis.call('GET', ARGV[2] .. head[1])
  if not status then
    redis.call('ZREM', KEYS[1], id)
  elseif #out < tonumber(ARGV[3]) then
    table.insert(out, {id, status, head[2] or '0', head[3], head[4] or '', head[5] or ''})
  end
end
return out`

// The channel every instance hears the runs asked to stop on.
const STOPS = "parley:run-stops"

const HEAD = `return redis.call('HMGET', KEYS[1], 'run', 'key', 'account', 'protocol')`

// KEYS: status, chunks. ARGV: first index, last index. The status first: an ended one means these are the last.
const READ = `
local status = redis.call('GET', KEYS[1])
if not status then return false end
return {status, redis.call('LRANGE', KEYS[2], ARGV[1], ARGV[2])}`

/**
 * Kept streams in Redis (`REDIS_URL`), over the instance's one connection; Redis expires them, so no sweep.
 * Stops are published on one channel, heard on a subscribing connection of each instance.
 */
export const redisRunStreams = Layer.effect(
  RunStreams,
  Effect.gen(function*() {
    const redis = yield* RedisConnection
    const { streams } = yield* AppConfig
    return RunStreams.of({
      open: (id, run, owner, now, protocol) =>
        Effect.flatMap(
          redis.run(OPEN, [idKey(id), byKey(owner.keyId)], [
            run,
            owner.keyId,
            owner.accountId,
            ABANDONED_AFTER_MS,
            statusKey(""),
            chunksKey(""),
            now,
            id,
            // A head lives at most an hour from its start, then the retention from its end.
            now - ABANDONED_AFTER_MS - streams.retentionMs,
            protocol
          ]),
          (opened) => opened === 1 ? Effect.void : Effect.fail({ _tag: "IdTaken" } as const)
        ),
      append: (run, _firstSeq, texts) =>
        texts.length === 0 ? Effect.void : Effect.asVoid(redis.run(APPEND, [statusKey(run), chunksKey(run)], texts)),
      end: (id, run, status, now, stopped) =>
        Effect.asVoid(
          redis.run(END, [statusKey(run), chunksKey(run), idKey(id)], [
            status,
            streams.retentionMs,
            run,
            now,
            stopped ? 1 : 0
          ])
        ),
      runs: (keyId, limit) =>
        Effect.map(
          redis.run(RUNS, [byKey(keyId)], [idKey(""), statusKey(""), limit]),
          (rows) =>
            (rows as ReadonlyArray<ReadonlyArray<string>>).map((
              [id, status, stopped, started, ended, protocol]
            ): RunSummary => ({
              id: id!,
              status: status as StreamStatus,
              stopped: stopped === "1",
              protocol: chatProtocolOf(protocol),
              startedAt: Number(started),
              endedAt: ended === "" || ended === undefined ? null : Number(ended)
            }))
        ),
      head: (id) =>
        Effect.gen(function*() {
          const head = yield* redis.run(HEAD, [idKey(id)], [])
          const [run, keyId, accountId, protocol] = head as ReadonlyArray<string | null>
          if (run == null || keyId == null || accountId == null) return undefined
          const status = (yield* redis.get(statusKey(run))) as StreamStatus | null
          return status === null
            ? undefined
            : { run, owner: { keyId, accountId }, status, protocol: chatProtocolOf(protocol) }
        }),
      read: (run, after, limit) =>
        Effect.map(
          redis.run(READ, [statusKey(run), chunksKey(run)], [after, after + limit - 1]),
          (read) => {
            if (!Array.isArray(read)) return undefined
            const [status, texts] = read as [StreamStatus, ReadonlyArray<string>]
            return { status, chunks: texts.map((text, i) => ({ seq: after + i + 1, text })) }
          }
        ),
      stop: (run) =>
        redis.publish(STOPS, run).pipe(
          Effect.catchCause((cause) => Effect.logWarning("Could not ask the instance running a run to stop it", cause))
        ),
      stops: (handler) => redis.subscribe(STOPS, handler),
      sweep: () => Effect.void
    })
  })
)
