// autocannon ships no types and @types/autocannon is not installed; the bench reads its result loosely.
declare module 'autocannon';
