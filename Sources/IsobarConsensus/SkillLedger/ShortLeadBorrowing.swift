import IsobarCore

extension SkillRecord {
    /// Gives every lead bucket that has learned nothing yet, below one that has, the skill of the nearest longer bucket
    /// that has: past forecasts (`isobar learn`) start at a lead of one day, so without this the first hours of the first
    /// day's forecast would keep the v1 rule until the archive has verified a few days of them. Errors grow with lead
    /// time, so the longer lead's weights rank the sources as they rank at shorter leads, and its interval is, if anything,
    /// wider than the shorter lead's: honest, never overconfident. A bucket's own skill replaces the borrowed one as soon
    /// as it has `minimumPairs` of its own; until it has scored enough cases for an interval of its own, it keeps the
    /// longer bucket's interval. The borrowed skill says where it came from (`borrowedFrom`).
    mutating func borrowForShortLeads() {
        for quantity in Set(fields.keys.map(\.quantity)) {
            var donor: (bucket: LeadBucket, skill: FieldSkill)?
            for bucket in LeadBucket.allCases.reversed() {
                let key = SkillKey(quantity, bucket)
                if var skill = fields[key], skill.isLearned {
                    if skill.quantiles == nil, let donor, donor.skill.quantiles != nil {
                        skill.quantiles = donor.skill.quantiles
                        skill.widening = max(skill.widening, donor.skill.widening)
                        fields[key] = skill
                    }
                    donor = (bucket, skill)
                } else if let donor {
                    var borrowed = donor.skill
                    borrowed.borrowedFrom = donor.skill.borrowedFrom ?? donor.bucket
                    fields[key] = borrowed
                }
            }
        }
    }
}
