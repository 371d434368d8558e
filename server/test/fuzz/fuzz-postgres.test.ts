import { fuzzSuite } from './suite.js';

fuzzSuite('postgres');
