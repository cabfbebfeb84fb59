#!/usr/bin/env node
// The server's benchmarks: idle.mjs, the start-up time and idle memory of the embedded database beside PostgreSQL.
import './idle.mjs'
