/** The monitor kinds: the kind table's names (src/product/monitors/kindTable.ts); a monitor alert's `metric` is its kind. */
export { MonitorKind } from "../product/monitors/kindTable"
