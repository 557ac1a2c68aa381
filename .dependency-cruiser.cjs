/**
 * The layers of src/ (docs/architecture.md), bottom to top: kernel, platform, adapters, analyses,
 * product, surfaces, then src/main.ts. A module may import from its own layer or any layer
 * below it, never above (type imports included), and no import cycle may exist between files.
 * test/architecture/layers.test.ts runs these rules and also refuses cycles between folders.
 */
const layers = ["kernel", "platform", "adapters", "analyses", "product", "surfaces"]

const upward = layers.map((layer, i) => ({
  name: `no-upward-from-${layer}`,
  comment: `${layer} may not import from a layer above it (${layers.slice(i + 1).join(", ") || "src/main.ts"})`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${[...layers.slice(i + 1), "main\\.ts$"].join("|")})` }
}))

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no import cycle between files",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true }
    },
    ...upward,
    {
      name: "no-framework-internals",
      comment: "the framework's public API only: no module under an internal/ folder of a dependency",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^node_modules/.*/internal/" }
    },
    {
      name: "layered-placement",
      comment: "every module of src/ lives in one of the layers (or is src/main.ts)",
      severity: "error",
      from: { path: "^src/", pathNot: `^src/(${layers.join("|")})/|^src/main\\.ts$` },
      to: {}
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^(src|node_modules)/",
    exclude: { path: "^src/surfaces/console/app/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] }
  }
}
