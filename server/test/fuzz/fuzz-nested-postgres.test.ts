import { nestedFuzzSuite } from './nested.js';

nestedFuzzSuite('postgres');
