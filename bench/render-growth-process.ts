/**
 * One process of the linear-growth benchmark (`render-growth.ts` starts it): times the variants
 * given as a JSON argument (`[["segments", true], …]`) on freshly built 1 h and 10 h documents
 * and prints their timings as one JSON line.
 * @module
 */
import { type GrowthVariant, measureGrowth } from './render-growth.ts';

const variants = JSON.parse(process.argv[2] ?? '[]') as GrowthVariant[];
process.stdout.write(`${JSON.stringify(measureGrowth(variants))}\n`);
