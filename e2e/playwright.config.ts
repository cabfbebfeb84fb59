import { defineConfig, devices } from '@playwright/test'
import { chromiumLaunch } from './chromium.mjs'

export { chromiumLaunch }

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: './results',
  use: {
    launchOptions: chromiumLaunch,
    permissions: ['clipboard-read', 'clipboard-write'],
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch } }],
})
