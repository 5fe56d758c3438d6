/* The harness's environment (a temp n8n user folder, quiet logs), before anything loads n8n-core. */
import '../../harness/env';

export {};
