import { createServer, type Server } from "node:net"
import { networkInterfaces } from "node:os"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { UPSTREAM_API_KEY } from "../support/gateway.ts"
import { provider, type Subject } from "./conformance.ts"
import { marked, processesWith } from "./support.ts"

const MiB = 1024 * 1024
const MEMORY = 256 * MiB
const DISK = 32 * MiB
const PROCESSES = 64

/**
 * The hostile cases of the reliability and security suites
 * (test/reliability/sandboxCaps.test.ts, securitySandboxes.test.ts,
 * test/sandbox/containment.test.ts), on each backend's own: what one
 * sandbox may take from the host, the gateway and other sandboxes.
 */
export const conformanceHostile = (subject: Subject, options: { readonly diskCapped: boolean }) =>
  describe(`the ${subject.backend} backend contains a hostile sandbox`, () => {
    const { create, run } = provider(subject, { memoryBytes: MEMORY, diskBytes: DISK, processes: PROCESSES })
    const secret = `env-secret-${Math.random().toString(36).slice(2)}`
    let listener: Server
    let port: number
    beforeAll(async () => {
      process.env.PARLEY_TEST_SECRET = secret
      listener = createServer((socket) => socket.end("host-service\n"))
      await new Promise<void>((resolve) => listener.listen(0, "0.0.0.0", resolve))
      port = (listener.address() as { port: number }).port
    })
    afterAll(() => {
      delete process.env.PARLEY_TEST_SECRET
      listener?.close()
    })

    /** The command's output, after which the sandbox must still work. */
    const contained = async (id: string, command: string, timeoutMs?: number) => {
      const result = await run(id, command, timeoutMs === undefined ? {} : { timeoutMs })
      expect((await run(id, "echo alive")).stdout).toBe("alive\n")
      return result
    }

    it("a fork bomb is held at the process limit, and the sandbox recovers", async () => {
      const { id } = await create()
      const marker = `fork-bomb-${id}`
      let most = 0
      const sample = setInterval(() => (most = Math.max(most, processesWith(marker).length)), 50)
      const result = await contained(id, marked(marker, "exec 2>/dev/null; f(){ f | f & }; f; sleep 60"), 3_000)
      clearInterval(sample)
      expect(result).toMatchObject({ exitCode: null, timedOut: true })
      expect(most).toBeGreaterThan(10)
      expect(most).toBeLessThanOrEqual(PROCESSES + 2)
      expect(processesWith(marker)).toEqual([])
    })

    it("a memory hog is stopped, and the sandbox recovers", async () => {
      const { id } = await create()
      const { stdout } = await contained(id, `head -c 2G /dev/zero | tail; echo "tail exit: \${PIPESTATUS[1]}"`)
      expect(stdout).toMatch(/^tail exit: [1-9]\d*\n$/)
    })

    it("/tmp and /dev/shm hold less than the memory cap; /dev takes nothing", async () => {
      const { id } = await create()
      const fill = (folder: string) =>
        `t=0; for f in a b; do head -c 200M /dev/zero > ${folder}/$f; t=$((t + $(stat -c %s ${folder}/$f))); done; ` +
        `echo "${folder} $t"`
      const result = await contained(
        id,
        [fill("/tmp"), fill("/dev/shm"), "echo x > /dev/fill; echo \"dev $?\""].join("\n")
      )
      const [tmp, shm, dev] = result.stdout.trim().split("\n")
      expect(Number(tmp?.replace("/tmp ", ""))).toBeLessThanOrEqual(MEMORY)
      expect(Number(shm?.replace("/dev/shm ", ""))).toBeLessThanOrEqual(MEMORY)
      expect(dev).toBe("dev 1")
      expect(result.stderr).toContain("No space left on device")
    })

    it.skipIf(!options.diskCapped)(
      "the workspace holds at most PARLEY_SANDBOX_DISK, and makes room again",
      async () => {
        const { id } = await create()
        const full = await contained(id, "head -c 100M /dev/zero > big; echo $?; stat -c %s big")
        const [status, size] = full.stdout.trim().split("\n")
        expect(status).toBe("1")
        expect(Number(size)).toBeLessThanOrEqual(DISK)
        expect(full.stderr).toContain("No space left on device")
        expect((await run(id, "rm big && head -c 1M /dev/zero > small && echo ok")).stdout).toBe("ok\n")
      }
    )

    it("sees nothing of the gateway: its files, environment, the host's services", async () => {
      const { id } = await create()
      const external = Object.values(networkInterfaces()).flat().find((entry) =>
        entry?.family === "IPv4" && !entry.internal
      )?.address
      const { stderr, stdout } = await contained(
        id,
        [
          `ls ${subject.hostFolder}; cat ${subject.hostFolder}/parley.db`,
          "env; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done",
          `(exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3)`,
          ...(external === undefined ? [] : [`(exec 3<>/dev/tcp/${external}/${port} && cat <&3)`]),
          "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '",
          "touch /etc/x /x /usr/x",
          "ls /var/run/docker.sock /run/docker.sock /run/podman/podman.sock /run/user 2>&1 | grep -c 'No such file'"
        ].join("\n")
      )
      const everything = stdout + stderr
      for (const hidden of [secret, UPSTREAM_API_KEY, "host-service", "SQLite format"]) {
        expect(everything).not.toContain(hidden)
      }
      expect(stderr).toContain(`${subject.hostFolder}': No such file or directory`)
      // network: false is loopback only.
      expect(stdout).toMatch(/^lo\n/m)
      expect(stdout.split("\n").filter((line) => /^[a-z]+\d*$/.test(line))).toEqual(["lo"])
      for (const path of ["/etc/x", "/x", "/usr/x"]) expect(stderr).toContain(`'${path}': Read-only file system`)
      // No engine socket in it.
      expect(stdout.trim().split("\n").at(-1)).toBe("4")
    })

    it("two sandboxes see neither each other's files nor processes", async () => {
      const [first, second] = [await create(), await create()]
      await run(first.id, "echo first-sandbox-private > /workspace/private.txt")
      const running = run(first.id, "sleep 7.77; true")
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const probe = await run(
        second.id,
        "cat /workspace/private.txt; grep -rs first-sandbox-private /tmp /run /var /home /mnt /srv /opt /root | head -1; " +
          "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done"
      )
      await running
      expect(probe.stdout).not.toContain("first-sandbox-private")
      expect(probe.stdout).not.toContain("7.77")
    })
  })
