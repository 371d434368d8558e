/** The preview pane beside the editor, and the bridge an entry's edits reach it through. */
export { PreviewContext, usePreviewBridge } from './components/PreviewContext';
export { PreviewPane } from './components/PreviewPane';
export { usePagePreview } from './components/usePagePreview';
