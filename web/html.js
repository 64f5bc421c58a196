/** Text made safe to put inside HTML or SVG markup (element text or a quoted attribute). */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
