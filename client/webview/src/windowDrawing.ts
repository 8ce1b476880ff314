// A big graph's drawing in the page, kept in step with the window around the view
// (viewWindow.ts) by adding and removing only what enters or leaves it: a zoom or pan frame
// that moves the window then costs what changed, not the whole window parsed, styled, laid out
// and painted again (a flat 10,000-step plan's worst zoom frame, bench/README.md).

import { renderSvg, type Box, type GraphLayout, type PlanGraph } from "@rlm-plan/core/graph/render";
import type { BandIndex } from "./viewWindow";

/** What a window's drawing put in the page: each drawn node's and edge's element, by id. */
export class WindowDrawing {
  private svg: SVGSVGElement | undefined;
  private labels = true;
  private readonly nodes = new Map<string, Element>();
  private readonly edges = new Map<string, Element>();
  /** Each node's place in the graph's order (containers before what they hold, drawn in that order). */
  private readonly order = new Map<string, number>();

  constructor(
    private readonly stage: HTMLElement,
    private readonly graph: PlanGraph,
    private readonly layout: GraphLayout,
    private readonly index: BandIndex,
  ) {
    graph.nodes.forEach((node, i) => this.order.set(node.id, i));
  }

  /**
   * Draws what meets `window` (with or without the boxes' text) and returns the step elements
   * it added, for the caller to mark (run states). A change of `labels` draws everything again.
   */
  draw(window: Box, labels: boolean): Element[] {
    const wanted = this.index.within(window);
    if (!this.svg || labels !== this.labels) return this.redraw(wanted, window, labels);
    const keep = new Set<string>();
    for (const node of wanted.nodes) keep.add(node.id);
    for (const edge of wanted.edges) keep.add(`edge:${edge.id}`);
    for (const [id, element] of this.nodes)
      if (!keep.has(id)) {
        element.remove();
        this.nodes.delete(id);
      }
    for (const [id, element] of this.edges)
      if (!keep.has(`edge:${id}`)) {
        element.remove();
        this.edges.delete(id);
      }
    const nodes = wanted.nodes.filter((node) => !this.nodes.has(node.id));
    const edges = wanted.edges.filter((edge) => !this.edges.has(edge.id));
    this.place(this.svg, window);
    if (nodes.length === 0 && edges.length === 0) return [];
    const parsed = parse(
      renderSvg({ ...this.graph, nodes, edges }, this.layout, { within: window, titles: false, labels }),
    );
    // Nodes where the graph's order puts them among those drawn; edges on top, last.
    const drawn = Array.from(this.nodes, ([id, element]) => ({ at: this.order.get(id) ?? 0, element })).sort(
      (a, b) => a.at - b.at,
    );
    const firstEdge = this.edges.values().next().value ?? null;
    const added: Element[] = [];
    let next = 0;
    for (const element of Array.from(parsed.children)) {
      const id = element.getAttribute("data-id") ?? "";
      if (element.tagName === "path") {
        this.svg.appendChild(element);
        this.edges.set(id, element);
        continue;
      }
      if (element.tagName !== "g") continue; // the document's <style> and <defs>: the first drawing's stand
      const at = this.order.get(id) ?? 0;
      while (next < drawn.length && (drawn[next]?.at ?? 0) < at) next++;
      this.svg.insertBefore(element, drawn[next]?.element ?? firstEdge);
      this.nodes.set(id, element);
      if (element.classList.contains("step")) added.push(element);
    }
    return added;
  }

  /** Everything in the window drawn afresh (the first drawing, or the text shown or hidden). */
  private redraw(wanted: PlanGraph, window: Box, labels: boolean): Element[] {
    this.labels = labels;
    this.nodes.clear();
    this.edges.clear();
    const svg = parse(renderSvg(wanted, this.layout, { within: window, titles: false, labels }));
    svg.querySelector("style")?.remove(); // the page's stylesheet (nonce'd) styles it
    this.stage.replaceChildren(svg);
    this.svg = svg;
    for (const element of Array.from(svg.children)) {
      const id = element.getAttribute("data-id");
      if (id === null) continue;
      (element.tagName === "path" ? this.edges : this.nodes).set(id, element);
    }
    this.place(svg, window);
    return Array.from(svg.querySelectorAll("g.step"));
  }

  /** The document is the window's size, its viewBox the window, placed at the window's corner. */
  private place(svg: SVGSVGElement, window: Box): void {
    const [width, height] = [Math.ceil(window.width), Math.ceil(window.height)];
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height));
    svg.setAttribute("viewBox", `${round(window.x)} ${round(window.y)} ${width} ${height}`);
    Object.assign(svg.style, { position: "absolute", left: `${window.x}px`, top: `${window.y}px` });
  }
}

/** The SVG document of `text`, parsed as the page's HTML parser reads it. */
function parse(text: string): SVGSVGElement {
  const template = document.createElement("template");
  template.innerHTML = text;
  return template.content.firstElementChild as SVGSVGElement;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
