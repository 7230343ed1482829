// n8n loads the nodes and credentials listed in package.json's "n8n" field from dist/;
// this entry point exists only so that `require('n8n-nodes-marketplace-merchant')` resolves.
module.exports = {};
