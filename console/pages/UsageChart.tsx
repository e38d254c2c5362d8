import { useEffect, useRef, useState } from "preact/hooks"
import uPlot from "uplot"
import type { UsageRow } from "../../src/domain/views.ts"
import { type Client, orNothingYet } from "../api.ts"
import { count, Pending, useLoad } from "../ui.tsx"

type Grouping = "hour" | "day"

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

// The last two days by the hour, the last 30 days by the day.
const windows: Record<Grouping, { readonly step: number; readonly count: number; readonly label: string }> = {
  hour: { step: HOUR_MS, count: 48, label: "the last 48 hours" },
  day: { step: DAY_MS, count: 30, label: "the last 30 days" }
}

/** Every bucket of the window (UTC, as the ledger sums), those without usage at zero. */
const series = (rows: ReadonlyArray<UsageRow>, groupBy: Grouping, now: number) => {
  const { step, count } = windows[groupBy]
  const last = Math.floor(now / step) * step
  const byStart = new Map(rows.map((row) => [Date.parse(row.bucket), row]))
  const starts = Array.from({ length: count }, (_, index) => last - (count - 1 - index) * step)
  return {
    from: starts[0]!,
    data: [
      starts.map((start) => start / 1000),
      starts.map((start) => byStart.get(start)?.requests ?? 0),
      starts.map((start) => byStart.get(start)?.errors ?? 0),
      starts.map((start) => byStart.get(start)?.totalTokens ?? 0)
    ] as uPlot.AlignedData
  }
}

const total = (rows: ReadonlyArray<UsageRow>, field: "requests" | "errors" | "totalTokens") =>
  rows.reduce((sum, row) => sum + row[field], 0)

/** A key's requests, errors and tokens over hours or days (uPlot, drawn on a canvas: nothing loaded from elsewhere). */
export const UsageChart = ({ client, keyId }: { readonly client: Client; readonly keyId: string }) => {
  const [groupBy, setGroupBy] = useState<Grouping>("hour")
  const [loaded] = useLoad(async () => {
    const now = Date.now()
    const { from } = series([], groupBy, now)
    const query = new URLSearchParams({ keyId, groupBy, from: new Date(from).toISOString() })
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
              data={series(rows, groupBy, loaded.value.now).data}
              step={windows[groupBy].step / 1000}
              label={`Usage by ${groupBy}`}
            />
          </>
        )}
    </div>
  )
}

const AXIS = "#8a8f98"

const Plot = ({ data, step, label }: {
  readonly data: uPlot.AlignedData
  /** Seconds between buckets: the x axis reaches half of one past each end, so the end bars show whole. */
  readonly step: number
  readonly label: string
}) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const bars = uPlot.paths.bars!({ size: [0.7, 32] })
    const options: uPlot.Options = {
      width: element.clientWidth,
      height: 240,
      scales: { x: { time: true, range: (_, min, max) => [min - step / 2, max + step / 2] } },
      series: [
        {},
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
    const resized = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 240 }))
    resized.observe(element)
    return () => {
      resized.disconnect()
      plot.destroy()
    }
  }, [data, step])
  return <div class="chart" ref={box} role="img" aria-label={label} />
}
