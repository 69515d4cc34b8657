/** test/e2e/julia-faults.ts with a 2025-11-25 client (legacy negotiation). */
import { juliaFaultTests } from './julia-faults.js';

juliaFaultTests('legacy', '2025-11-25');
