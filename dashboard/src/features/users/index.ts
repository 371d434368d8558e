/** The project's members. */
export { useMembers } from './api/users.api';
