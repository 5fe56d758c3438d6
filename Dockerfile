# n8n with n8n-nodes-loan-crm installed from the packed tarball: no registry access at build or run time.
#   npm ci && npm run build && npm pack        # writes n8n-nodes-loan-crm-<version>.tgz here
#   docker build --build-arg N8N_VERSION=2.30.0 -t n8n-loan-crm .
#   docker run -p 5678:5678 -v n8n_data:/home/node/.n8n n8n-loan-crm
# The install line is the one the README documents and the e2e runs (scripts/release/offline-install.ts).
ARG N8N_VERSION=2.30.0
FROM n8nio/n8n:${N8N_VERSION}
COPY --chown=node:node n8n-nodes-loan-crm-*.tgz /tmp/n8n-nodes-loan-crm.tgz
USER node
RUN mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install --offline --legacy-peer-deps /tmp/n8n-nodes-loan-crm.tgz
