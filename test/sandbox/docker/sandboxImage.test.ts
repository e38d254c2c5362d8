import type Dockerode from "dockerode"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { contentLabel, defaultSandboxImage, readRecipe } from "../../../src/sandbox/docker/image/imageRecipe.ts"
import { engineClient, type TestEngine, testEngines } from "../../support/engines.ts"

/**
 * `parley sandbox image` on each engine, run as an operator runs it. The root
 * filesystem is kept where scripts/engines.sh keeps it, so that a build here
 * only imports once CI (or an earlier run) made it; the first run on a machine
 * makes it (minutes).
 */
const root = resolve(import.meta.dirname, "../../..")
const node = join(root, "node_modules/.bin/node")
const rootfsCache = join(tmpdir(), "parley-rootfs")
const testTag = `${defaultSandboxImage}-test`
const recipe = await Effect.runPromise(readRecipe())
const engines = await testEngines()

const parley = (env: Record<string, string>, ...args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      node,
      ["src/cli/main.ts", "sandbox", "image", ...args],
      { cwd: root, env: { ...process.env, PARLEY_SANDBOX_IMAGE: "", ...env }, timeout: 900_000 },
      (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr })
    )
  })

/** Runs `script` in a container of `image` set up as a sandbox's is; its exit code and output. */
const runInImage = async (docker: Dockerode, image: string, script: string) => {
  const container = await docker.createContainer({
    Image: image,
    Cmd: ["bash", "-c", script],
    // A terminal's output is one plain stream: no frames to take apart.
    Tty: true,
    // A volume over the workspace, as a sandbox has: a new one takes the image's folder, owned by its user.
    Volumes: { "/workspace": {} },
    HostConfig: {
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      NetworkMode: "none",
      Init: true,
      Tmpfs: { "/tmp": "size=64m" }
    }
  })
  try {
    await container.start()
    const { StatusCode } = await container.wait()
    const logs = await container.logs({ stdout: true, stderr: true, follow: false })
    return { code: StatusCode as number, output: String(logs).replaceAll("\r\n", "\n") }
  } finally {
    await container.remove({ force: true, v: true })
  }
}

describe.runIf(engines.length > 0).each(engines)("parley sandbox image on $name", (engine: TestEngine) => {
  const env = { DOCKER_HOST: engine.host }
  const docker = engineClient(engine)

  it("builds the image with progress, and a second run finds it up to date", { timeout: 1_200_000 }, async () => {
    const built = await parley(env, "--tag", testTag, "--force", "--rootfs-cache", rootfsCache)
    expect(built.stderr).toMatch(new RegExp(`^Engine: ${engine.name} [^\\n]+ at ${engine.host}\\.$`, "m"))
    expect(built.stderr).toMatch(/^\[1\/2\] (Making|Taking) the root filesystem/m)
    expect(built.stderr).toMatch(/^\[2\/2\] Importing it into the engine/m)
    const sent = [...built.stderr.matchAll(/^ {2}sent (\d+) of (\d+) MB$/gm)]
    expect(sent.length).toBe(4)
    expect(sent.at(-1)![1]).toBe(sent.at(-1)![2])
    expect(built.stdout).toContain(`Built ${testTag} (image `)
    expect(built.stdout).toContain(`content ${recipe.content}) on ${engine.name}`)
    expect(built.stdout).toContain(`unless PARLEY_SANDBOX_IMAGE=${testTag} is set`)
    expect(built.code).toBe(0)

    const again = await parley(env, "--tag", testTag)
    expect(again.stdout).toContain(`${testTag} is up to date on ${engine.name}`)
    expect(again.stderr).not.toContain("[1/2]")
    expect(again.code).toBe(0)
  })

  it("holds what sandboxes need, configured for them", { timeout: 120_000 }, async () => {
    const image = await docker.getImage(testTag).inspect()
    expect(image.Config.Labels?.[contentLabel]).toBe(recipe.content)
    expect(image.Config.User).toBe("1000:1000")
    expect(image.Config.WorkingDir).toBe("/workspace")
    expect(image.Config.Env).toEqual(
      expect.arrayContaining([expect.stringMatching(/^PATH=.*\/usr\/bin/), "HOME=/workspace"])
    )
    expect(image.Config.Cmd).toEqual(["sleep", "infinity"])

    const { code, output } = await runInImage(
      docker,
      testTag,
      [
        "set -e",
        "id -un; pwd; touch /workspace/written && echo workspace-writable",
        "for p in bash python3 Xvfb xdotool xwd xmessage ps tar sleep; do command -v $p >/dev/null || echo missing $p; done",
        "python3 -c 'print(6 * 7)'",
        // A real display: the server, a pointer move, a screenshot of the root window (XWD, as parley reads it).
        "mkdir -m 1777 /tmp/.X11-unix",
        "Xvfb :0 -screen 0 640x480x24 -nolisten tcp -noreset 2>/dev/null & for i in $(seq 50); do [ -e /tmp/.X11-unix/X0 ] && break; sleep 0.1; done",
        "export DISPLAY=:0; xdotool mousemove 10 20; xdotool getmouselocation --shell | head -2 | tr '\\n' ' '; echo",
        "xwd -root -silent | wc -c"
      ].join("\n")
    )
    expect(output).not.toContain("missing")
    expect(output.split("\n").slice(0, 5)).toEqual(["sandbox", "/workspace", "workspace-writable", "42", "X=10 Y=20 "])
    // An XWD of 640x480 at 32 bits a pixel: the header and 1.2 MB of pixels.
    expect(Number(output.split("\n")[5])).toBeGreaterThan(640 * 480 * 4)
    expect(code).toBe(0)
  })

  it("tags an image of the same content instead of building another", { timeout: 120_000 }, async () => {
    const alias = `${testTag}-alias`
    const tagged = await parley(env, "--tag", alias)
    try {
      expect(tagged.stdout).toMatch(new RegExp(`^Tagged image [0-9a-f]{12} as ${alias} on ${engine.name}`))
      expect(tagged.stderr).not.toContain("[1/2]")
      expect(tagged.code).toBe(0)
      expect((await docker.getImage(alias).inspect()).Config.Labels?.[contentLabel]).toBe(recipe.content)
    } finally {
      await docker.getImage(alias).remove().catch(() => undefined)
    }
  })

  it("says to install mmdebstrap when it is missing, and changes nothing", { timeout: 120_000 }, async () => {
    const before = (await docker.getImage(testTag).inspect()).Id
    // Only Node on PATH: no mmdebstrap (nor anything else).
    const failed = await parley({ ...env, PATH: dirname(node) }, "--tag", testTag, "--force")
    expect(failed.stderr).toContain("mmdebstrap is missing")
    expect(failed.stderr).toContain("apt-get install mmdebstrap")
    expect(failed.code).not.toBe(0)
    expect((await docker.getImage(testTag).inspect()).Id).toBe(before)
  })
})

describe("parley sandbox image without an engine", () => {
  it("says where it looked and how to start or name one", async () => {
    const failed = await parley({ DOCKER_HOST: "unix:///nonexistent/engine.sock" })
    expect(failed.stderr).toContain("Cannot reach the container engine at unix:///nonexistent/engine.sock")
    expect(failed.stderr).toContain("systemctl start docker")
    expect(failed.stderr).toContain("podman system service")
    expect(failed.stderr).toContain("DOCKER_HOST")
    expect(failed.code).not.toBe(0)
  })

  it("reads DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH as the gateway's docker backend does", async () => {
    const refused = await parley({ DOCKER_HOST: "tcp://127.0.0.1:9" })
    expect(refused.stderr).toContain(
      "Cannot reach the container engine at tcp://127.0.0.1:9: nothing is listening there (connection refused)"
    )
    expect(refused.code).not.toBe(0)
    const noCertificates = await parley({
      DOCKER_HOST: "tcp://127.0.0.1:2376",
      DOCKER_TLS_VERIFY: "1",
      DOCKER_CERT_PATH: "/nonexistent/certificates"
    })
    expect(noCertificates.stderr).toContain(
      "Cannot reach the container engine at tcp://127.0.0.1:2376 (TLS): DOCKER_TLS_VERIFY is set but " +
        "/nonexistent/certificates/ca.pem cannot be read (DOCKER_CERT_PATH)"
    )
    expect(noCertificates.code).not.toBe(0)
    const notAnAddress = await parley({ DOCKER_HOST: "ssh://engine.example" })
    expect(notAnAddress.stderr).toContain("parley speaks to an engine over unix:// or tcp://")
    expect(notAnAddress.code).not.toBe(0)
  })
})
