// Which part of a big graph the view draws (graphView.ts): what is in view, with room around it,
// so that panning and zooming redraw only when the view leaves that room. A flat 10,000-step
// plan is a column about a million pixels tall; drawn whole, its 10,000 groups made every pan
// and zoom frame take seconds (bench/README.md).

import { bounds, meets } from "@rlm-plan/core/graph/render";
import type { Box, GraphEdge, GraphLayout, GraphNode, PlanGraph } from "@rlm-plan/core/graph/render";

/** The view's pan and zoom: the drawing's origin on screen and its scale. */
export interface ViewTransform {
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

/** A graph with more nodes than this is drawn a window at a time; a smaller one whole. */
export const WINDOWED_ABOVE_NODES = 400;

/**
 * Below this scale a big graph's boxes are drawn without their text (12 px lines under 4 px
 * high, unreadable): zoomed out, a window holds hundreds of steps, and their text was most of
 * the time a frame took.
 */
export const LABELS_FROM_SCALE = 0.35;

/** The part of the drawing (its own coordinates) a `width` × `height` frame shows. */
export function inView(view: ViewTransform, width: number, height: number): Box {
  return { x: -view.x / view.scale, y: -view.y / view.scale, width: width / view.scale, height: height / view.scale };
}

/** What to draw for a view: the box in view and half its size again on each side. */
export function around(box: Box): Box {
  return { x: box.x - box.width / 2, y: box.y - box.height / 2, width: box.width * 2, height: box.height * 2 };
}

/** Whether `outer` holds all of `inner`. */
export function holds(outer: Box, inner: Box): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** The height of a band of the drawing in the index below (its coordinates). */
const BAND = 1000;
/** An item over this many bands tall (the root plan's box, a long data edge) is checked on every query. */
const TALL_BANDS = 32;

/**
 * A graph's nodes and edges by the horizontal bands of the drawing they reach, built once per
 * layout: finding what meets a window then costs what the window holds, not a pass over every
 * node and edge (which at 10,000 steps was most of a zoom frame's time).
 */
export class BandIndex {
  private readonly bands = new Map<number, number[]>();
  private readonly tall: number[] = [];
  private readonly items: { readonly box: Box; readonly node?: GraphNode; readonly edge?: GraphEdge }[] = [];

  constructor(
    private readonly graph: PlanGraph,
    layout: GraphLayout,
  ) {
    for (const node of graph.nodes) {
      const box = layout.boxes.get(node.id);
      if (box) this.add({ box, node });
    }
    for (const edge of graph.edges) {
      const points = layout.routes.get(edge.id);
      if (points && points.length > 1) this.add({ box: bounds(points), edge });
    }
  }

  private add(item: (typeof this.items)[number]): void {
    const at = this.items.push(item) - 1;
    const [first, last] = [Math.floor(item.box.y / BAND), Math.floor((item.box.y + item.box.height) / BAND)];
    if (last - first > TALL_BANDS) return void this.tall.push(at);
    for (let band = first; band <= last; band++) {
      const list = this.bands.get(band);
      if (list) list.push(at);
      else this.bands.set(band, [at]);
    }
  }

  /** The graph with only the nodes and edges that meet `box`, in the graph's order (containers first). */
  within(box: Box): PlanGraph {
    const found = new Set<number>(this.tall);
    for (let band = Math.floor(box.y / BAND); band <= Math.floor((box.y + box.height) / BAND); band++)
      for (const at of this.bands.get(band) ?? []) found.add(at);
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    for (const at of Array.from(found).sort((a, b) => a - b)) {
      const item = this.items[at];
      if (!item || !meets(item.box, box)) continue;
      if (item.node) nodes.push(item.node);
      if (item.edge) edges.push(item.edge);
    }
    return { ...this.graph, nodes, edges };
  }
}
