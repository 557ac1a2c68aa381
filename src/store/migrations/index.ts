/**
 * Migrations, imported statically so they are bundled into the `bun build --compile` binary
 * (`fromFileSystem` cannot read `/$bunfs`). Add new ones here in order.
 */
import m0001 from "./0001_init"

export const migrations = {
  "0001_init": m0001
}
