import { defineReliabilitySuite } from './suite';

defineReliabilitySuite(false);
