/**
 * Builds the single binary exactly as `npm run build` does: scripts/build.ts is the one place its
 * flags and passes are decided; only the output path differs.
 */
export { buildBinary } from "../../scripts/build"
