/*
 * Imported first by the harness: n8n's ErrorReporter logs every node error through n8n's logger,
 * which only adds noise to test output. Set N8N_LOG_LEVEL yourself to see it.
 */
process.env.N8N_LOG_LEVEL ??= 'silent';

export {};
