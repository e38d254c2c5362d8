import { Console, Effect, Option } from "effect"
import { Command, Flag } from "effect/cli"
import { type BuildResult, buildSandboxImage } from "../sandbox/docker/image/buildSandboxImage.ts"
import { defaultSandboxImage, recipeFolderName } from "../sandbox/docker/image/imageRecipe.ts"
import { CliFailure } from "./CliFailure.ts"

/**
 * `parley sandbox image`: the image `docker` sandboxes start from, built on
 * the engine DOCKER_HOST names from deploy/sandbox-image/ (docs/sandboxes.md).
 */

const short = (id: string) => id.replace(/^sha256:/, "").slice(0, 12)

const summary = (result: BuildResult): string => {
  switch (result.outcome) {
    case "built":
      return `Built ${result.tag} (image ${short(result.id)}, content ${result.content}) on ${result.engine}.`
    case "current":
      return `${result.tag} is up to date on ${result.engine}: it has the content of ${recipeFolderName} ` +
        `(${result.content}), so there is nothing to build. \`--force\` builds it again.`
    case "tagged":
      return `Tagged image ${short(result.id)} as ${result.tag} on ${result.engine}: it has the content of ` +
        `${recipeFolderName} (${result.content}), so there is nothing to build. \`--force\` builds it again.`
  }
}

/** Which image the gateway will use, when it is not the one just built. */
const gatewayNote = (tag: string): string | undefined => {
  const configured = process.env["PARLEY_SANDBOX_IMAGE"] || defaultSandboxImage
  if (configured === tag) return undefined
  return process.env["PARLEY_SANDBOX_IMAGE"]
    ? `Note: PARLEY_SANDBOX_IMAGE names ${configured}: the gateway's sandboxes start from that image, not this one.`
    : `Note: sandboxes start from ${defaultSandboxImage} unless PARLEY_SANDBOX_IMAGE=${tag} is set for the gateway.`
}

export const sandboxImageCommand = Command.make("image", {
  tag: Flag.String("tag").pipe(
    Flag.withDescription(`The image's name (default ${defaultSandboxImage})`),
    Flag.withMetavar("NAME[:TAG]"),
    Flag.optional
  ),
  force: Flag.Boolean("force").pipe(
    Flag.withDescription("Build even when an image of the same content is there"),
    Flag.withDefault(false)
  ),
  rootfsCache: Flag.String("rootfs-cache").pipe(
    Flag.withDescription(
      "Keep the root filesystem in this folder, and take it from there when this recipe made it: a build on " +
        "another engine then only imports (delete the folder's rootfs-*.tar for Debian's newest packages)"
    ),
    Flag.withMetavar("DIR"),
    Flag.optional
  )
}, (input) =>
  Effect.gen(function*() {
    const tag = Option.getOrElse(input.tag, () => defaultSandboxImage)
    const result = yield* buildSandboxImage(
      { tag, force: input.force, rootfsCache: Option.getOrUndefined(input.rootfsCache) },
      (line) => process.stderr.write(`${line}\n`)
    ).pipe(Effect.mapError((error) => new CliFailure({ message: error.message })))
    yield* Console.log(summary(result))
    const note = gatewayNote(tag)
    if (note !== undefined) yield* Console.log(note)
  })).pipe(
    Command.withDescription(
      `Build the image docker sandboxes start from, on the engine DOCKER_HOST names, from ${recipeFolderName} ` +
        "(Debian's packages on this host: no registry, no network inside the engine)"
    ),
    Command.withExamples([
      { command: "parley sandbox image", description: `Build ${defaultSandboxImage}, or say it is up to date` },
      {
        command: "DOCKER_HOST=unix:///run/podman/podman.sock parley sandbox image",
        description: "The same on Podman's service"
      }
    ])
  )
