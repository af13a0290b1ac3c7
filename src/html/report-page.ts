/** The style sheet the HTML reports share (calibration, stall calibration, outcomes), inlined in each page. */
export const REPORT_STYLE = `body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1040px; color: #1b1f23; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 28px 0 8px; }
.sub { color: #586069; margin: 0 0 12px; }
.verdict { font-size: 16px; padding: 8px 12px; border-radius: 6px; }
.verdict.ok { background: #e6f4ea; border: 1px solid #34a853; }
.verdict.no { background: #fdecea; border: 1px solid #d93025; }
.verdict.warn { background: #fef7e0; border: 1px solid #f9ab00; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; border: 1px solid #e1e4e8; border-radius: 6px; padding: 8px; background: #fff; }
figcaption { font-size: 12px; color: #586069; max-width: 460px; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { border-bottom: 1px solid #e1e4e8; padding: 4px 10px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
ul.warnings li { color: #9a6700; }
svg text { font: 11px system-ui, sans-serif; fill: #1b1f23; }`;


/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/**
 * The start of a self-contained report page, up to `<body>`: a content security policy that lets the page
 * load nothing, the title, and the shared style with the page's own rules after it.
 */
export function reportPageHead(title: string, pageStyle = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${REPORT_STYLE}${pageStyle === '' ? '' : `\n${pageStyle}`}
</style>
</head>
<body>`;
}
