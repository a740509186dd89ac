D = "energy_tariffs"
TOU_CTX = [
    "Time-of-Use tariff (E7-Flex). Peak rate: 34.2p per kWh, applies 16:00–19:00 on weekdays. Day rate: 24.8p per kWh, applies 07:00–16:00 and 19:00–23:00 on weekdays and 07:00–23:00 at weekends. Night rate: 11.5p per kWh, applies 23:00–07:00 every day. Standing charge: 53.4p per day.",
    "Export payments. Customers with solar panels of up to 4 kWp receive 15p per kWh exported, paid quarterly. Exports are measured by a smart meter; customers without a working smart meter are paid on a deemed basis of 50% of generation. Payments below £5 are rolled over to the next quarter.",
    "Exit fees. Fixed 12-month contracts carry an exit fee of £75 per fuel if you leave more than 49 days before the end date. No exit fee applies in the last 49 days, or if you switch to another of our tariffs.",
]
CN_TARIFF_CTX = [
    "居民生活用电实行阶梯电价：第一档年用电量0至2760千瓦时，电价0.4883元/千瓦时；第二档2761至4800千瓦时，电价0.5383元/千瓦时；第三档4800千瓦时以上，电价0.7883元/千瓦时。阶梯电量按年度累计计算，每年1月1日起重新计算。",
    "峰谷分时电价：选择执行峰谷电价的居民用户，峰时段（8:00—22:00）电价在阶梯电价基础上每千瓦时加价0.03元，谷时段（22:00—次日8:00）每千瓦时降价0.2元。峰谷电价执行期限不少于12个月，期间不得变更。",
    "家庭户籍人口在5人及以上的用户，每增加1人，各档电量基数每年增加1000千瓦时。申请时需提供户口簿及身份证明，经供电企业核实后次月生效。",
]

SCENARIOS = [
    dict(
        id="en-e1",
        domain=D,
        lang="en",
        doc="Tariff_Terms_2025.pdf",
        loc="s. 9",
        ctx=TOU_CTX,
        q="What exit fee applies to a fixed 12-month energy contract, and when is there no fee?",
        ref="£75 per fuel if you leave more than 49 days before the end date; no exit fee in the last 49 days or if you switch to another of the supplier's tariffs.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "Leaving a fixed 12-month contract more than 49 days before its end date costs £75 per fuel. There is no exit fee in the final 49 days, or if you move to another of the supplier's tariffs. (Source: Tariff_Terms_2025.pdf)",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "Based on the retrieved documents:\n- Exit fee: £75 per fuel\n- Charged only if you leave more than 49 days before the end date\n- Not charged in the last 49 days of the contract\n- Not charged if you switch to another of the supplier's tariffs\n[1]",
            ),
            (
                "faithful_hedged_dash",
                "pass",
                "Generally, no exit fee is charged if you leave within the last 49 days of the contract or switch to one of the supplier's other tariffs; otherwise the fee is £75 per fuel. — Tariff_Terms_2025.pdf",
            ),
            (
                "faithful_subset_reformatted",
                None,
                "Exit fee: £75.00 per fuel, payable when you leave a fixed 12-month contract more than 49 days before its end date. #para3",
            ),
            (
                "halluc_number",
                "fail",
                "A fixed 12-month contract has an exit fee of £75 per fuel if you leave more than 42 days before the end date. No fee applies in the last 42 days or if you switch to another of the supplier's tariffs. (Source: Tariff_Terms_2025.pdf)",
            ),
            (
                "halluc_unit_scope",
                None,
                "The exit fee is £75 per account, charged if you leave more than 49 days before the end date; there is no fee in the last 49 days or when switching to another of the supplier's tariffs. [1]",
            ),
            (
                "halluc_negation",
                "fail",
                "Leaving more than 49 days before the end date costs £75 per fuel, and the fee still applies if you switch to another of the supplier's tariffs. No fee is charged in the last 49 days. (Source: Tariff_Terms_2025.pdf)",
            ),
            (
                "halluc_added_sentence",
                None,
                "The exit fee is £75 per fuel if you leave more than 49 days before the end date; none applies in the last 49 days or if you switch to another of the supplier's tariffs. The fee is also waived if you move home. [1]",
            ),
        ],
    ),
    dict(
        id="en-e2",
        domain=D,
        lang="en",
        doc="Tariff_Terms_2025.pdf",
        loc="s. 2",
        ctx=TOU_CTX,
        ct="composite",
        value=34.2,
        unit="p/kWh",
        q="How much is the peak rate on the E7-Flex tariff and when does it apply?",
        ref="34.2p per kWh, on weekdays from 16:00 to 19:00.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Peak rate: 34.2 p/kWh\n\nThe peak rate applies on weekdays between 16:00 and 19:00. At weekends the day rate applies from 07:00 to 23:00. (Source: Tariff_Terms_2025.pdf)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "34.20p/kWh",
                {
                    "narrative_answer": "The peak rate is 34.2p per kWh and applies from 16:00 to 19:00 on weekdays. At other times on weekdays you pay the day rate of 24.8p per kWh, or the night rate of 11.5p per kWh from 23:00 to 07:00."
                },
            ),
            (
                "faithful_table",
                "pass",
                "| Rate | Price | When |\n|---|---|---|\n| Peak | 34.2p/kWh | weekdays 16:00–19:00 |\n| Day | 24.8p/kWh | weekdays 07:00–16:00 and 19:00–23:00; weekends 07:00–23:00 |\n| Night | 11.5p/kWh | 23:00–07:00 every day |\n\n[1]",
            ),
            (
                "halluc_time_shift",
                "fail",
                "Peak rate: 34.2 p/kWh\n\nThe peak rate applies on weekdays from 16:00 to 20:00. (Source: Tariff_Terms_2025.pdf)",
            ),
            (
                "halluc_quantifier_widened",
                None,
                "Peak rate: 34.2p per kWh\nIt applies from 16:00 to 19:00 every day of the week, including weekends. [1]",
            ),
            (
                "halluc_narrative_added",
                None,
                "34.2 p/kWh",
                {
                    "narrative_answer": "The peak rate is 34.2p per kWh on weekdays from 16:00 to 19:00. It is reduced by 20% during the summer months."
                },
            ),
        ],
    ),
    dict(
        id="en-e3",
        domain=D,
        lang="en",
        doc="Tariff_Terms_2025.pdf",
        loc="s. 2",
        ctx=TOU_CTX,
        q="Is there a special overnight rate for electric-vehicle charging on this tariff?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved terms don't mention electric-vehicle charging, so I can't say whether a special EV rate exists.",
            ),
            (
                "refusal_fab_amount",
                1,
                "The tariff terms don't describe an EV rate. Dedicated EV tariffs typically offer around 7.5p per kWh overnight, but this is not in the documents.",
            ),
            (
                "refusal_context_numbers",
                0,
                "I couldn't find an EV-specific rate. The documents only give the general night rate of 11.5p per kWh, which applies 23:00–07:00 every day.",
            ),
        ],
    ),
    dict(
        id="en-z1",
        domain=D,
        lang="zh",
        doc="居民电价政策.pdf",
        loc="第1页",
        ctx=CN_TARIFF_CTX,
        q="居民阶梯电价各档电量和电价是多少？",
        ref="第一档年用电量0至2760千瓦时，0.4883元/千瓦时；第二档2761至4800千瓦时，0.5383元/千瓦时；第三档4800千瓦时以上，0.7883元/千瓦时。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "居民阶梯电价分三档（按年度累计）：年用电量2760千瓦时以内为第一档，每千瓦时0.4883元；2761到4800千瓦时为第二档，每千瓦时0.5383元；超过4800千瓦时为第三档，每千瓦时0.7883元。（来源：居民电价政策.pdf）",
            ),
            (
                "faithful_meta_table",
                "pass",
                "根据检索到的文档：\n\n| 档位 | 年用电量（千瓦时） | 电价（元/千瓦时） |\n|---|---|---|\n| 第一档 | 0至2760 | 0.4883 |\n| 第二档 | 2761至4800 | 0.5383 |\n| 第三档 | 4800以上 | 0.7883 |\n\n[1]",
            ),
            (
                "faithful_reformatted_dash",
                "pass",
                "第一档：0至2,760千瓦时，0.4883元/千瓦时；第二档：2,761至4,800千瓦时，0.5383元/千瓦时；第三档：4,800千瓦时以上，0.7883元/千瓦时。阶梯电量每年1月1日起重新计算。— 居民电价政策.pdf",
            ),
            (
                "faithful_subset_hedged",
                None,
                "户籍人口5人及以上的家庭，每多1人，各档电量基数每年可增加1000千瓦时，通常需凭户口簿和身份证明申请，核实后次月生效。#para3",
            ),
            (
                "halluc_number",
                "fail",
                "第一档年用电量0至2760千瓦时，0.4883元/千瓦时；第二档2761至4800千瓦时，0.5583元/千瓦时；第三档4800千瓦时以上，0.7883元/千瓦时。（来源：居民电价政策.pdf）",
            ),
            (
                "halluc_period",
                None,
                "阶梯电量按月累计：第一档0至2760千瓦时，0.4883元/千瓦时；第二档2761至4800千瓦时，0.5383元/千瓦时；第三档4800千瓦时以上，0.7883元/千瓦时。[1]",
            ),
            (
                "halluc_added_sentence",
                None,
                "第一档0至2760千瓦时，每千瓦时0.4883元；第二档2761至4800千瓦时，每千瓦时0.5383元；第三档4800千瓦时以上，每千瓦时0.7883元。第三档用户不能选择峰谷分时电价。（来源：居民电价政策.pdf）",
            ),
            (
                "halluc_bracket_aside",
                None,
                "第一档年用电量0至2760千瓦时（城乡居民统一执行），电价0.4883元/千瓦时；第二档2761至4800千瓦时，0.5383元/千瓦时；第三档4800千瓦时以上，0.7883元/千瓦时。[1]",
            ),
        ],
    ),
    dict(
        id="en-z2",
        domain=D,
        lang="zh",
        doc="居民电价政策.pdf",
        loc="第2页",
        ctx=CN_TARIFF_CTX,
        ct="composite",
        value=0.2,
        unit="元/千瓦时",
        q="选择峰谷电价后，谷时段每千瓦时便宜多少？谷时段是几点到几点？",
        ref="谷时段为22:00至次日8:00，在阶梯电价基础上每千瓦时降价0.2元。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "降价幅度：0.2元/千瓦时\n谷时段为22:00至次日8:00，在阶梯电价基础上每千瓦时降价0.2元；峰时段8:00至22:00每千瓦时加价0.03元。（来源：居民电价政策.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "0.20元/千瓦时",
                {
                    "narrative_answer": "谷时段是晚上22:00到次日8:00，电价在阶梯电价基础上每千瓦时降0.2元。注意峰谷电价至少执行12个月，期间不能变更。"
                },
            ),
            (
                "faithful_value_meta",
                "pass",
                "数值：0.20 元/千瓦时\n根据检索到的文档，谷时段（22:00—次日8:00）每千瓦时降价0.2元[1]。",
            ),
            (
                "halluc_swap",
                "fail",
                "降价幅度：0.2元/千瓦时\n谷时段（22:00—次日8:00）每千瓦时降价0.03元，峰时段每千瓦时加价0.2元。（来源：居民电价政策.pdf）",
            ),
            (
                "halluc_time_shift",
                "fail",
                "数值：0.2元/千瓦时\n谷时段为23:00至次日7:00，每千瓦时降价0.2元。[1]",
            ),
            (
                "halluc_narrative_negation",
                None,
                "0.2元",
                {
                    "narrative_answer": "谷时段22:00至次日8:00，每千瓦时降价0.2元。峰谷电价可以随时申请取消。"
                },
            ),
        ],
    ),
    dict(
        id="en-z3",
        domain=D,
        lang="zh",
        doc="居民电价政策.pdf",
        loc="第1页",
        ctx=CN_TARIFF_CTX,
        q="一般工商业用户的电价是多少？",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "检索到的文档只涉及居民生活用电，没有工商业电价的信息，无法回答。",
            ),
            (
                "refusal_fab_amount_year",
                1,
                "文档仅涉及居民电价。一般工商业电价约为0.65元/千瓦时，2024年有所下调，请以当地发改委文件为准。",
            ),
        ],
    ),
]
