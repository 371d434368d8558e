/**
 * The look of the API reference at /docs: Folio's name, mark and colours instead of Swagger UI's
 * (whose top bar also offers to "explore" any other document's URL, which has no place here).
 * Swagger UI itself stays: it is maintained, renders OpenAPI 3.1 and needs nothing from a CDN.
 */

const INK = '#1f2a44';
const ACCENT = '#e8b04b';

/** The mark: a folded page (a folio) and the name. */
export const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="112" height="32" viewBox="0 0 112 32" role="img" aria-label="Folio">
<path d="M4 4h14l6 6v18H4z" fill="${ACCENT}"/><path d="M18 4v6h6" fill="none" stroke="${INK}" stroke-width="2"/>
<text x="32" y="23" font-family="Georgia, 'Times New Roman', serif" font-size="20" font-weight="700" fill="#fff">Folio</text>
</svg>`;

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M4 2h18l6 6v22H4z" fill="${ACCENT}"/><path d="M22 2v6h6" fill="none" stroke="${INK}" stroke-width="2"/></svg>`;

export const DOCS_CSS = `
.swagger-ui .topbar { background: ${INK}; padding: 8px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar-wrapper img { height: 32px; }
.swagger-ui .info .title small.version-stamp { background: ${ACCENT}; }
.swagger-ui .info .title small.version-stamp pre { color: ${INK}; }
`;

export const DOCS_TITLE = 'Folio API reference';
