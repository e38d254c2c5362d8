import { useEffect, useRef, useState } from "preact/hooks"
import uPlot from "uplot"
import type { UsageRow } from "../../src/domain/views.ts"
import { type Client, orNothingYet } from "../api.ts"
import { count, Pending, useLoad } from "../ui.tsx"

type Grouping = "hour" | "day"

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

// The last two days by the hour, the last 30 days by the day; a bucket named in UTC, as the ledger sums them.
const windows: Record<Grouping, {
  readonly step: number
  readonly count: number
  readonly label: string
  readonly bucket: Intl.DateTimeFormat
}> = {
  hour: {
    step: HOUR_MS,
    count: 48,
    label: "the last 48 hours",
    bucket: new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })
  },
  day: {
    step: DAY_MS,
    count: 30,
    label: "the last 30 days",
    bucket: new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" })
  }
}

// The fewest buckets the chart spans: a key used in the last hour only shows twelve hours, not one bar at the edge
// of 48.
const FEWEST_SHOWN = 12

/** The start of every bucket of the window (UTC, as the ledger sums them), oldest first, the one now last. */
const bucketStarts = (groupBy: Grouping, now: number) => {
  const { step, count } = windows[groupBy]
  const last = Math.floor(now / step) * step
  return Array.from({ length: count }, (_, index) => last - (count - 1 - index) * step)
}

/**
 * The buckets the chart spans, those without usage at zero: from the one before the first with usage (so the
 * first bar has room) to the one now, at least `FEWEST_SHOWN` of them.
 */
const series = (rows: ReadonlyArray<UsageRow>, groupBy: Grouping, now: number): uPlot.AlignedData => {
  const all = bucketStarts(groupBy, now)
  const byStart = new Map(rows.map((row) => [Date.parse(row.bucket), row]))
  const firstUsed = all.findIndex((start) => (byStart.get(start)?.requests ?? 0) > 0)
  const starts = all.slice(Math.max(0, Math.min(firstUsed - 1, all.length - FEWEST_SHOWN)))
  return [
    starts.map((start) => start / 1000),
    starts.map((start) => byStart.get(start)?.requests ?? 0),
    starts.map((start) => byStart.get(start)?.errors ?? 0),
    starts.map((start) => byStart.get(start)?.totalTokens ?? 0)
  ]
}

const total = (rows: ReadonlyArray<UsageRow>, field: "requests" | "errors" | "totalTokens") =>
  rows.reduce((sum, row) => sum + row[field], 0)

/** A key's requests, errors and tokens over hours or days (uPlot, drawn on a canvas: nothing loaded from elsewhere). */
export const UsageChart = ({ client, keyId }: { readonly client: Client; readonly keyId: string }) => {
  const [groupBy, setGroupBy] = useState<Grouping>("hour")
  const [loaded] = useLoad(async () => {
    const now = Date.now()
    const from = new Date(bucketStarts(groupBy, now)[0]!).toISOString()
    const query = new URLSearchParams({ keyId, groupBy, from })
    const answer = await orNothingYet(client.get<{ rows: ReadonlyArray<UsageRow> }>(`/usage?${query}`))
    return { rows: answer?.rows ?? [], now }
  }, [client, keyId, groupBy])
  const rows = loaded.state === "done" ? loaded.value.rows : []
  const requests = total(rows, "requests")
  return (
    <div class="usage">
      <div class="toggle" role="group" aria-label="Group usage by">
        {(["hour", "day"] as const).map((grouping) => (
          <button
            type="button"
            key={grouping}
            aria-pressed={groupBy === grouping}
            onClick={() => setGroupBy(grouping)}
          >
            By {grouping}
          </button>
        ))}
      </div>
      <Pending loaded={loaded} />
      {loaded.state !== "done" ? null : requests === 0
        ? <p class="empty">No usage recorded yet for {windows[groupBy].label}.</p>
        : (
          <>
            <p aria-live="polite">
              {count(requests, "request")}, {count(total(rows, "errors"), "error")},{" "}
              {count(total(rows, "totalTokens"), "token")} in {windows[groupBy].label}.
            </p>
            <Plot
              data={series(rows, groupBy, loaded.value.now)}
              step={windows[groupBy].step / 1000}
              bucket={windows[groupBy].bucket}
              label={`Usage by ${groupBy}`}
            />
          </>
        )}
    </div>
  )
}

const AXIS = "#8a8f98"

// uPlot reads times in the browser's zone unless told one; the buckets are UTC hours and days.
const inUtc = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC")

const Plot = ({ data, step, bucket, label }: {
  readonly data: uPlot.AlignedData
  /** Seconds between buckets: the x axis reaches half of one past each end, so the end bars show whole. */
  readonly step: number
  /** How the legend names a bucket. */
  readonly bucket: Intl.DateTimeFormat
  readonly label: string
}) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const bars = uPlot.paths.bars!({ size: [0.7, 32] })
    const latest = data[0].length - 1
    const options: uPlot.Options = {
      width: element.clientWidth,
      height: 240,
      tzDate: inUtc,
      scales: { x: { time: true, range: (_, min, max) => [min - step / 2, max + step / 2] } },
      // Off the plot, the legend shows the latest bucket (the one now) rather than "--".
      hooks: {
        setLegend: [(plot) => {
          if (plot.legend.idx == null) plot.setLegend({ idx: latest }, false)
        }]
      },
      series: [
        { label: "Time", value: (_, seconds) => seconds == null ? "--" : `${bucket.format(seconds * 1000)} UTC` },
        {
          label: "Requests",
          scale: "count",
          stroke: "#2c5be3",
          fill: "rgba(44, 91, 227, 0.45)",
          paths: bars,
          points: { show: false }
        },
        {
          label: "Errors",
          scale: "count",
          stroke: "#c62828",
          fill: "rgba(198, 40, 40, 0.55)",
          paths: bars,
          points: { show: false }
        },
        { label: "Tokens", scale: "tokens", stroke: "#8e44ad", width: 2, points: { show: false } }
      ],
      axes: [
        { stroke: AXIS },
        { scale: "count", stroke: AXIS, label: "requests" },
        { scale: "tokens", side: 1, stroke: AXIS, label: "tokens", grid: { show: false } }
      ]
    }
    const plot = new uPlot(options, data, element)
    plot.setLegend({ idx: latest }, false)
    const resized = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 240 }))
    resized.observe(element)
    return () => {
      resized.disconnect()
      plot.destroy()
    }
  }, [data, step, bucket])
  return <div class="chart" ref={box} role="img" aria-label={label} />
}
