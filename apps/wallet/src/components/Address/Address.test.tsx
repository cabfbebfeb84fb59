import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { Address } from './Address.js'

afterEach(cleanup)

describe('Address', () => {
  test('default: two equal unbreakable halves whose text is the whole address', () => {
    const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    const { container } = render(
      <p>
        <Address address={address} />
      </p>,
    )
    const halves = [...container.querySelectorAll('.address-half')].map((e) => e.textContent ?? '')
    expect(halves).toEqual(['0xf39Fd6e51aad88F6F4c', 'e6aB8827279cffFb92266'])
    expect(container.textContent).toBe(address)
  })
})
