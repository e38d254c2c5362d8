import { describeEngine, engines, startDockerGateway } from "../../sandbox/engines.ts"
import { computerThroughChat } from "./computerThroughChat.ts"

// The computer tool in `docker` sandboxes: Xvfb and xdotool in the container, on each engine.
for (const engine of engines) {
  describeEngine(engine, `on ${engine.name}`, () => computerThroughChat(() => startDockerGateway(engine)))
}
