// The graph as a PNG (the view's "Copy as PNG"): the exported SVG drawn at twice its size on a
// white canvas, put on the clipboard when the webview may, and sent to the panel either way (it
// offers a file when the clipboard refused).

import type { FromWebview } from "../../src/graph/messages";

export async function copyImage(svgText: string, post: (message: FromWebview) => void): Promise<void> {
  const image = new Image();
  const url = URL.createObjectURL(new Blob([svgText], { type: "image/svg+xml" }));
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error("the drawing could not be turned into an image"));
      image.src = url;
    });
    const scale = 2;
    const board = document.createElement("canvas");
    board.width = Math.ceil(image.width * scale);
    board.height = Math.ceil(image.height * scale);
    const context = board.getContext("2d");
    if (!context) throw new Error("no 2D canvas");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, board.width, board.height);
    context.scale(scale, scale);
    context.drawImage(image, 0, 0);
    const blob = await new Promise<Blob>((resolve, reject) =>
      board.toBlob((b) => (b ? resolve(b) : reject(new Error("no PNG"))), "image/png"),
    );
    const base64 = await blobBase64(blob);
    let copied = false;
    let error: string | undefined;
    try {
      await navigator.clipboard.write([new ClipboardItem({ "image/png": blob })]);
      copied = true;
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    post({ type: "png", base64, copied, ...(error ? { error } : {}) });
  } catch (cause) {
    post({ type: "error", message: cause instanceof Error ? cause.message : String(cause) });
  } finally {
    URL.revokeObjectURL(url);
  }
}

function blobBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error ?? new Error("cannot read the image"));
    reader.readAsDataURL(blob);
  });
}
