#!/usr/bin/env node
// `npm run bench -- web`: the web app's Lighthouse mobile scores and first-load bytes (bench/web/lighthouse.mjs).
import './lighthouse.mjs'
