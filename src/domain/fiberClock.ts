/**
 * The fiber's Clock read without an Effect step, for hot paths already inside
 * `Effect.withFiberRuntime`. It is the clock `Clock.currentTimeMillis` would read (a test's
 * TestClock included).
 */
import { Clock, Context, DefaultServices, type Fiber } from "effect"

export const nowIn = (fiber: Fiber.RuntimeFiber<unknown, unknown>): number =>
  Context.get(fiber.getFiberRef(DefaultServices.currentServices), Clock.Clock).unsafeCurrentTimeMillis()
