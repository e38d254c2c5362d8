import { describe, expect, it } from "vitest"
import { replyCategories, type ReplyCategory } from "../../../src/domain/JobsiteConfig.ts"
import { inventedFigures } from "../../../src/tools/jobsite/factGuard.ts"
import { factSheet, resolveBrand } from "../../../src/tools/jobsite/facts.ts"
import { fillTemplate, replyInstructions } from "../../../src/tools/jobsite/prompts.ts"
import { configData, replyPrompts } from "./fixtures.ts"

const harbor = configData.brands[0]!
const lumen = configData.brands[1]!

const sheetFor = (category: ReplyCategory, message = "hi", position?: string) =>
  factSheet(configData, harbor, category, message, position)

// Every string in a brand's configuration: what must not leak into another brand's facts.
const valuesOf = (value: unknown): Array<string> =>
  typeof value === "string" ? [value] : Array.isArray(value) || (typeof value === "object" && value !== null)
    ? Object.values(value).flatMap(valuesOf)
    : []

describe("resolveBrand", () => {
  it("finds a brand by name or alias, whatever the case", () => {
    expect(resolveBrand(configData, "lumen bakery")).toBe(lumen)
    expect(resolveBrand(configData, " HARBOR ")).toBe(harbor)
  })

  it("names the known brands when the one asked for is not configured", () => {
    expect(resolveBrand(configData, "Acme")).toBe(
      "Unknown brand \"Acme\". configData lists: Harbor Coffee, Lumen Bakery."
    )
  })

  it("takes the only brand when none is asked for, and asks when there are several", () => {
    expect(resolveBrand({ brands: [lumen] }, undefined)).toBe(lumen)
    expect(resolveBrand(configData, undefined)).toMatch(/Several brands are configured .*pass `brand`/)
  })
})

describe("factSheet", () => {
  it("quotes each position's pay with its stores", () => {
    expect(sheetFor("pay").facts).toEqual([
      "Brand: Harbor Coffee — Specialty coffee bars.",
      "Barista (Riverside): pay 26 CNY per hour",
      "Shift Lead (Old Town): pay 32 CNY per hour"
    ])
  })

  it("narrows to the stores the message names and the position asked about", () => {
    expect(sheetFor("location", "Is there a store in hangzhou?").facts).toEqual([
      "Brand: Harbor Coffee — Specialty coffee bars.",
      "Store Old Town: 12 Hefang Street, Shangcheng, Hangzhou; hiring Shift Lead"
    ])
    expect(sheetFor("schedule", "hours?", "barista").facts).toEqual([
      "Brand: Harbor Coffee — Specialty coffee bars.",
      "Barista (Riverside): schedule Shifts of 6 h between 07:00 and 21:00"
    ])
  })

  it("lists what configData lacks instead of a fact", () => {
    const benefits = sheetFor("benefits")
    expect(benefits.facts).toContain("Barista (Riverside): benefits Free drinks on shift")
    expect(benefits.unknown).toEqual(["benefits of Shift Lead"])
    expect(sheetFor("pay", "pay?", "Cashier").unknown).toEqual(["a position called \"Cashier\" (not listed)"])
    expect(factSheet(configData, lumen, "interviewBooking", "when?", undefined).unknown).toEqual([
      "how and when interviews take place"
    ])
  })

  it("takes the brand's own policies first, then the global ones", () => {
    expect(sheetFor("interviewBooking").facts).toEqual([
      "Brand: Harbor Coffee — Specialty coffee bars.",
      "Interview: Walk-in interviews at the store.",
      "Interview times: Mon-Fri 14:00-17:00",
      "Bring to the interview: ID card",
      "Contact: Share the store phone only after an interview is booked."
    ])
  })

  it.each(replyCategories)("never states another brand's facts (%s)", (category) => {
    const text = factSheet(configData, harbor, category, "Shanghai?", undefined).facts.join("\n")
    const shared = new Set(valuesOf(harbor))
    const lumenOnly = valuesOf(lumen).filter((value) => !shared.has(value))
    expect(lumenOnly).toContain("7500 CNY per month")
    for (const value of lumenOnly) expect(text).not.toContain(value)
  })
})

describe("templates and instructions", () => {
  it("fills the placeholders from the fact sheet", () => {
    expect(fillTemplate(replyPrompts.templates.location!, sheetFor("location"))).toBe(
      "Name the nearest store of Harbor Coffee among: Riverside (Pudong, Shanghai); Old Town (Shangcheng, Hangzhou)."
    )
  })

  it("gives the model the general instruction, the category's template, the facts and what is unknown", () => {
    const text = replyInstructions(replyPrompts, "benefits", sheetFor("benefits"))
    expect(text).toContain(replyPrompts.generalInstruction)
    expect(text).toContain("List the benefits in the facts.")
    expect(text).toContain("- Barista (Riverside): benefits Free drinks on shift")
    expect(text).toContain("The configuration does not say anything about:\n- benefits of Shift Lead")
    expect(text).toContain("say you will check and get back to them")
  })
})

describe("inventedFigures", () => {
  const facts = ["Barista (Riverside): pay 26 CNY per hour", "Shifts between 07:00 and 21:00"]

  it("accepts figures the sources state, also written full-width or with leading zeros", () => {
    expect(inventedFigures("It pays ２６ CNY an hour, from 7:00 to 21:00.", facts)).toEqual([])
  })

  it("reports figures no source states", () => {
    expect(inventedFigures("It pays 30 CNY an hour, 26 on weekends, bonus 500.", facts)).toEqual(["30", "500"])
  })
})
