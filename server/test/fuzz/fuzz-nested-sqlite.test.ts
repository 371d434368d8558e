import { nestedFuzzSuite } from './nested.js';

nestedFuzzSuite('sqlite');
