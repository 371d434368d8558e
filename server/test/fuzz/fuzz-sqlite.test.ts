import { fuzzSuite } from './suite.js';

fuzzSuite('sqlite');
