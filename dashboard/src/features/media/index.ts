/** The media library's queries, for pickers outside the media screen. */
export { useMediaList, useUploadMedia } from './api/media.api';
