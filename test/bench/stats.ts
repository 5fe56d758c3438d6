/** Median, min and max of a set of runs. */
export interface Summary {
	median: number;
	min: number;
	max: number;
	n: number;
}

export function summarize(values: number[]): Summary {
	if (values.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

/** Every run's value divided by the paired run's value (same index). */
export function pairedRatios(numerators: number[], denominators: number[]): number[] {
	const n = Math.min(numerators.length, denominators.length);
	return Array.from({ length: n }, (_, i) => numerators[i] / denominators[i]);
}
