import { createContext, useContext } from 'react';
import type { PreviewBridge } from '../lib/preview-bridge';

/** The page screen's bridge, for its forms to send drafts and highlights; null outside a page screen. */
export const PreviewContext = createContext<PreviewBridge | null>(null);

export const usePreviewBridge = () => useContext(PreviewContext);
