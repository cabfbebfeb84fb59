// RFC 3339 §5.6 `date-time`. "T" and "Z" may be lower case (§5.6, note on case); no other variation is allowed.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/

/**
 * Parses an RFC 3339 `date-time` into a `Date`, or returns `undefined` when the text is not one or names a moment
 * that does not exist. JavaScript's `Date` rolls `2024-02-31` over to 2 March; this refuses it (§5.7: the day must
 * exist in its month and year).
 */
export function parseDateTime(value: string): Date | undefined {
  const match = DATE_TIME.exec(value)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s, fraction = '', zulu, sign, oh, om] = match
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = Number(h)
  const minute = Number(mi)
  const second = Number(s)
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined
  // A leap second (60) is valid RFC 3339; it is read as the first instant of the next minute.
  if (hour > 23 || minute > 59 || second > 60) return undefined
  let offsetMinutes = 0
  if (!zulu) {
    const offsetHour = Number(oh)
    const offsetMinute = Number(om)
    if (offsetHour > 23 || offsetMinute > 59) return undefined
    offsetMinutes = (sign === '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute)
  }
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not map the years 0–99 to 1900–1999.
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute - offsetMinutes, second, Math.floor(Number(`0${fraction}`) * 1000))
  return date
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}
