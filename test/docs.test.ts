import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * The relative link targets of a markdown text, without their `#anchor` or `?query`: inline links and images
 * (`[a](b)`, `![a](b)`, with an optional title) and reference definitions (`[a]: b`). Links inside fenced code blocks
 * and code spans are text, not links, and so are absolute URLs (`https:`, `mailto:`) and bare anchors (`#x`).
 */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '')
  const targets = [
    ...[...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/gm)].map((m) => m[1] ?? ''),
  ]
  return targets
    .filter((target) => target !== '' && !target.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => decodeURIComponent(target.replace(/[#?].*$/, '')))
}

/** The links of `file` (a path relative to the root) whose target does not exist; `/x` is relative to the root. */
function brokenLinks(file: string, markdown: string): string[] {
  return relativeLinks(markdown).filter((target) => {
    const path = target.startsWith('/') ? join(root, target) : join(root, dirname(file), target)
    return !existsSync(path)
  })
}

describe('relativeLinks', () => {
  test('default: finds inline links, images and reference definitions, without anchors', () => {
    const markdown = [
      'See [errors](docs/errors.md#err_uri_invalid), ![shot](docs/a%20b.png "title") and [ref][r].',
      '[r]: ./LICENSE',
      '[site](https://example.com) [mail](mailto:a@b.c) [here](#usage)',
    ].join('\n')
    expect(relativeLinks(markdown)).toEqual(['docs/errors.md', 'docs/a b.png', './LICENSE'])
  })

  test('behavior: code spans and fenced blocks hold no links', () => {
    const markdown = ['`[a](missing.md)`', '```md', '[b](missing.md)', '```', '[c](real.md)'].join('\n')
    expect(relativeLinks(markdown)).toEqual(['real.md'])
  })
})

describe('brokenLinks', () => {
  test('error: a link to a missing file is reported, one to an existing file is not', () => {
    const fixture =
      'Read [the errors](../docs/errors.md) and [the missing guide](../docs/no-such-guide.md#intro).'
    expect(brokenLinks('packages/README.md', fixture)).toEqual(['../docs/no-such-guide.md'])
  })
})

describe('every relative link in every tracked markdown file points at a file that exists', () => {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '' && existsSync(join(root, file)))

  test('precondition: the tracked markdown files are found', () => {
    expect(files).toContain('README.md')
    expect(files).toContain('docs/errors.md')
  })

  test.each(files)('%s', (file) => {
    expect(brokenLinks(posix.normalize(file), readFileSync(join(root, file), 'utf8'))).toEqual([])
  })
})
