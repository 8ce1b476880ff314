// How the graph view gets its layout engine: elkjs is a script of its own (dist/graphLayout.js,
// the global ELK), added to the page with the view's nonce on the first layout that needs it (a
// column of steps never does: graph/layout.ts), so the view starts without parsing its 1.5 MiB.

import { setElkLoader } from "@rlm-plan/core/graph/layout";

/** Lets layouts load elkjs from where the view's own `<script>` element says (`data-layout`), with its nonce. */
export function loadElkOnDemand(self: HTMLScriptElement | null): void {
  const layoutScript = self?.dataset.layout;
  const nonce = self?.nonce ?? "";
  setElkLoader(
    () =>
      new Promise((resolve, reject) => {
        if (!layoutScript) return reject(new Error("the page names no layout script"));
        const script = document.createElement("script");
        script.nonce = nonce;
        script.src = layoutScript;
        script.onload = () => {
          const elk = (window as { ELK?: { default?: unknown } }).ELK;
          const engine = (elk as { default?: unknown } | undefined)?.default ?? elk;
          if (typeof engine === "function") resolve(engine as Parameters<typeof resolve>[0]);
          else reject(new Error("the layout script defined no ELK"));
        };
        script.onerror = () => reject(new Error("the layout engine (elkjs) did not load"));
        document.head.appendChild(script);
      }),
  );
}
