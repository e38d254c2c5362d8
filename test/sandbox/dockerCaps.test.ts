import { Effect, Fiber } from "effect"
import { mkdirSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { networkInterfaces } from "node:os"
import { afterAll, beforeAll, expect, it } from "vitest"
import { SandboxProvider } from "../../src/sandbox/SandboxProvider.ts"
import { provider } from "./conformance.ts"
import { describeEngine, dockerSandboxes, engineClient, engines } from "./engines.ts"
import { dataDirectory } from "./support.ts"

/**
 * The `docker` backend's per-sandbox caps on each engine (docs/sandboxes.md):
 * the container as the engine holds it, memory aggregated over a sandbox's
 * processes and tmpfs mounts, and what a sandbox with network reaches.
 */

const MiB = 1024 * 1024
const MEMORY = 256 * MiB
const limits = { memoryBytes: MEMORY, processes: 64, cpus: 0.5, diskBytes: 200 * MiB }

// Each engine's sandboxes on a database of their own: the records of one database are one engine's.
const folders = engines.map(() => dataDirectory())
folders.forEach(({ data }) => mkdirSync(data, { recursive: true }))
afterAll(() => folders.forEach(({ base }) => rmSync(base, { recursive: true, force: true })))

let listener: Server
let hostPort: number
beforeAll(async () => {
  listener = createServer((socket) => socket.end("host-service\n"))
  await new Promise<void>((resolve) => listener.listen(0, "0.0.0.0", resolve))
  hostPort = (listener.address() as { port: number }).port
})
afterAll(() => listener?.close())

for (const [index, engine] of engines.entries()) {
  const { data } = folders[index]!
  describeEngine(engine, `per-sandbox caps on ${engine.name}`, () => {
    const subject = {
      backend: "docker",
      sandboxes: () => dockerSandboxes(engine, data, limits),
      hostFolder: data
    } as const
    const { create, run, runtime } = provider(subject, limits)
    const docker = engineClient(engine)
    const containerOf = async (id: string) => {
      // Found by its labels only, as the backend finds it.
      const found = await docker.listContainers({ all: true, filters: { label: [`parley.sandbox=${id}`] } })
      expect(found).toHaveLength(1)
      return docker.getContainer(found[0]!.Id)
    }

    it("a container of its own, labelled, with its caps, no capabilities, no host path, no network", async () => {
      const sandbox = await create({ ownerKeyId: "key_caps" })
      const container = await containerOf(sandbox.id)
      const info = await container.inspect()
      expect(info.Config.Labels).toMatchObject({ "parley.sandbox": sandbox.id, "parley.owner": "key_caps" })
      expect(info.Config.Labels["parley.deployment"]).toMatch(/^dep_[0-9a-f]{16}$/)
      expect(info.HostConfig).toMatchObject({
        Memory: MEMORY,
        MemorySwap: MEMORY,
        PidsLimit: 64,
        NanoCpus: 500_000_000,
        ReadonlyRootfs: true,
        NetworkMode: "none"
      })
      expect(info.HostConfig.Binds ?? []).toEqual([])
      expect(info.Mounts.filter((mount) => mount.Type === "bind" || mount.Type === "volume")).toEqual([])
      const inside = await run(
        sandbox.id,
        [
          "id -u",
          "grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status | tr -d '\\t'",
          "tr '\\0\\n' '  ' < /proc/1/cmdline | cut -c1-60",
          "cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/memory/memory.memsw.limit_in_bytes",
          "cat /sys/fs/cgroup/pids/pids.max /sys/fs/cgroup/cpu/cpu.cfs_quota_us /sys/fs/cgroup/cpu/cpu.cfs_period_us",
          "findmnt -no FSTYPE,OPTIONS /workspace; findmnt -no OPTIONS /"
        ].join("\n")
      )
      const lines = inside.stdout.trim().split("\n")
      expect(lines.slice(0, 4)).toEqual([
        "1000",
        "CapEff:0000000000000000",
        "CapBnd:0000000000000000",
        "NoNewPrivs:1"
      ])
      // The engine's init (docker-init, catatonit) reaps orphans.
      expect(lines[4]).toMatch(/init/)
      expect(lines.slice(5, 10).map(Number)).toEqual([MEMORY, MEMORY, 64, 50_000, 100_000])
      expect(lines[10]).toMatch(/^tmpfs +.*size=131072k/)
      expect(lines[11]).toMatch(/^ro,/)
    })

    it("four writers of 100 MB into /tmp and the workspace keep the sandbox under its memory cap", async () => {
      const { id } = await create()
      const writers = (folder: string) =>
        Promise.all([1, 2, 3, 4].map((n) => run(id, `head -c 100M /dev/zero > ${folder}/w${n}; echo $?`)))
      for (const folder of ["/tmp", "/workspace"]) {
        const written = await writers(folder)
        // Some fill it, the rest find it full; none is killed, nothing swaps.
        expect(written.map((result) => result.exitCode)).toEqual([0, 0, 0, 0])
        expect(written.some((result) => result.stdout === "1\n")).toBe(true)
        expect(written.map((result) => result.stderr).join("")).toContain("No space left on device")
      }
      const usage = await run(
        id,
        "cat /sys/fs/cgroup/memory/memory.max_usage_in_bytes; du -scb /tmp /workspace | tail -1 | cut -f1; echo alive"
      )
      const [most, held, alive] = usage.stdout.trim().split("\n")
      expect(Number(most)).toBeLessThanOrEqual(MEMORY)
      // /tmp a quarter of the cap, the workspace half: both full, yet room for commands.
      expect(Number(held)).toBeGreaterThan(0.7 * MEMORY)
      expect(alive).toBe("alive")
      const state = (await (await containerOf(id)).inspect()).State
      expect([state.Running, state.OOMKilled]).toEqual([true, false])
    })

    it("network: a bridge out, from which other sandboxes are not reached; the host's services are", async () => {
      const [listening, probing] = [await create({ network: true }), await create({ network: true })]
      const address = async (id: string) => (await run(id, "hostname -I")).stdout.trim().split(" ")[0]!
      const [other, self] = [await address(listening.id), await address(probing.id)]
      expect(other).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
      const serving = runtime().runFork(
        Effect.flatMap(
          Effect.service(SandboxProvider),
          (sandboxes) =>
            sandboxes.run(listening.id, { command: "timeout 25 python3 -m http.server 8080", timeoutMs: 30_000 })
        )
      )
      // The listener answers on its own address.
      const own = await run(listening.id, "sleep 1; exec 3<>/dev/tcp/127.0.0.1/8080 && echo reached", {
        timeoutMs: 10_000
      })
      expect(own.stdout).toBe("reached\n")
      const gateway = (await run(probing.id, "awk '$2 == \"00000000\" { print $3 }' /proc/net/route")).stdout.trim()
      const gatewayIp = gateway.match(/../g)!.reverse().map((hex) => parseInt(hex, 16)).join(".")
      const external = Object.values(networkInterfaces()).flat().find((entry) =>
        entry?.family === "IPv4" && !entry.internal
      )?.address
      const probe = (target: string) =>
        `timeout 3 bash -c 'exec 3<>/dev/tcp/${target} && head -c 20 <&3 && echo " reached ${target}"' 2>/dev/null`
      const reach = await run(
        probing.id,
        [
          probe(`${other}/8080`),
          probe(`${gatewayIp}/${hostPort}`),
          ...external ? [probe(`${external}/${hostPort}`)] : []
        ]
          .join("; "),
        { timeoutMs: 20_000 }
      )
      expect(self).not.toBe(other)
      expect(reach.stdout).not.toContain(`reached ${other}`)
      // Measured, and said in docs/sandboxes.md: the host's own services answer on the bridge's gateway.
      expect(reach.stdout).toContain(`host-service\n reached ${gatewayIp}/${hostPort}`)
      await runtime().runPromise(Fiber.interrupt(serving))
    }, 60_000)
  })
}
