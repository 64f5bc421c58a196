/** Text made safe to put inside HTML or SVG markup (element text or a quoted attribute). */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A server's message as markup: escaped, with its `quoted` parts (a
 * move, a name) as code rather than backticks.
 */
export function messageHtml(text) {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Shows a server's message in `el` (see `messageHtml`). */
export function setMessage(el, text) {
  el.innerHTML = messageHtml(text);
}
