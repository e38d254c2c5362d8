import type { ConfigData, ReplyPrompts } from "../../../src/domain/JobsiteConfig.ts"

/** Two brands with different pay, stores and policies: a reply about one must never carry the other's facts. */
export const configData: ConfigData = {
  brands: [
    {
      name: "Harbor Coffee",
      aliases: ["Harbor"],
      description: "Specialty coffee bars.",
      stores: [
        {
          name: "Riverside",
          city: "Shanghai",
          district: "Pudong",
          address: "88 Binjiang Avenue",
          positions: [
            {
              title: "Barista",
              pay: "26 CNY per hour",
              schedule: "Shifts of 6 h between 07:00 and 21:00",
              requirements: ["Health certificate"],
              benefits: ["Free drinks on shift"]
            }
          ]
        },
        {
          name: "Old Town",
          city: "Hangzhou",
          district: "Shangcheng",
          address: "12 Hefang Street",
          positions: [
            {
              title: "Shift Lead",
              pay: "32 CNY per hour",
              schedule: "Five days a week, 09:00 to 18:00",
              requirements: ["One year of cafe experience"],
              benefits: []
            }
          ]
        }
      ],
      interviewPolicy: {
        policy: "Walk-in interviews at the store.",
        slots: ["Mon-Fri 14:00-17:00"],
        bring: ["ID card"]
      }
    },
    {
      name: "Lumen Bakery",
      stores: [
        {
          name: "Central",
          city: "Shanghai",
          district: "Jing'an",
          address: "301 Nanjing West Road",
          positions: [
            {
              title: "Baker",
              pay: "7500 CNY per month",
              schedule: "Night shifts, 22:00 to 06:00",
              requirements: [],
              benefits: ["Dormitory"]
            }
          ]
        }
      ]
    }
  ],
  contactPolicy: { policy: "Share the store phone only after an interview is booked." }
}

export const replyPrompts: ReplyPrompts = {
  generalInstruction: "You are Mia, a friendly recruiter. Keep replies under 60 words.",
  templates: {
    pay: "Quote the pay for {{positions}} at {{brand}} exactly as listed.",
    location: "Name the nearest store of {{brand}} among: {{stores}}.",
    benefits: "List the benefits in the facts.",
    interviewBooking: "Invite the candidate to an interview at {{brand}}."
  },
  checkBackReply: "Good question! Let me check and get back to you."
}
