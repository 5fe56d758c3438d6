import { defineReliabilitySuite } from './suite';

// The same suite with the sandbox's model of the service's rate limit switched on.
defineReliabilitySuite({ capacity: 3000, refillPerSecond: 100 });
