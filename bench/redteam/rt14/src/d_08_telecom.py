D = "telecom_plans"
TEL_CTX = [
    "Plan Unlimited Plus: £25 per month on a 24-month contract, or £30 per month on a 1-month rolling contract. Includes unlimited UK calls and texts and unlimited 5G data. After 650 GB in a month, speeds may be reduced to 2 Mbps during busy periods. Tethering is included up to 100 GB per month.",
    "Roaming. Customers can use their UK allowance in 47 destinations in Europe at £2.25 per day, charged only on days the phone is used abroad. Roaming in the USA, Canada and Australia costs £5 per day. Roaming is capped at 30 GB per month; beyond this a charge of £3.13 per GB applies.",
    "Price rises. Monthly plan prices increase by £1.50 every April. Customers are not entitled to cancel penalty-free because of this annual increase, as it is set out at the point of sale.",
]
CN_TEL_CTX = [
    "畅享5G套餐129元档：每月含国内通用流量60GB、国内通话500分钟，赠送视频会员权益一项。套餐外国内流量按5元/GB计费，当月达到15元后按3GB/15元收取，超出部分不再收费直至满3GB。通话超出后按0.15元/分钟计费。",
    "合约期：办理本套餐需签订24个月合约，合约期内不可降档至低于99元的套餐。合约期内提前解约的，需支付剩余月份月费总额30%的违约金。合约期满后自动续约，可随时变更套餐。",
    "新入网用户首月按天折算套餐费和资源，次月起全额生效。副卡每张月费10元，最多可办理2张，共享主卡流量和通话。",
]

SCENARIOS = [
    dict(
        id="tc-e1",
        domain=D,
        lang="en",
        doc="Plan_Terms_UnlimitedPlus.pdf",
        loc="p. 3",
        ctx=TEL_CTX,
        q="How much does roaming in Europe cost on Unlimited Plus, and are there any limits?",
        ref="£2.25 per day in 47 European destinations, charged only on days the phone is used abroad; roaming is capped at 30 GB per month, with £3.13 per GB beyond that.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "You can use your UK allowance in 47 European destinations for £2.25 a day, and you're only charged on days you actually use your phone abroad. Roaming data is capped at 30 GB a month, after which it costs £3.13 per GB. (Source: Plan_Terms_UnlimitedPlus.pdf)",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "Based on the retrieved documents:\n\n- Europe (47 destinations): £2.25 per day, only on days the phone is used abroad\n- Monthly roaming cap: 30 GB\n- Beyond the cap: £3.13 per GB\n\n[1]",
            ),
            (
                "faithful_combine",
                "pass",
                "In Europe roaming is £2.25 per day of use across 47 destinations, while the USA, Canada and Australia cost £5 per day. In all cases roaming is capped at 30 GB a month, with £3.13 per GB charged beyond that. — Plan_Terms_UnlimitedPlus.pdf",
            ),
            (
                "faithful_subset_hedged",
                None,
                "Roaming in the USA, Canada and Australia typically costs £5 per day on this plan. [1]",
            ),
            (
                "halluc_number",
                "fail",
                "Roaming in 47 European destinations costs £2.50 per day, charged only on days you use your phone abroad. It's capped at 30 GB per month, then £3.13 per GB. (Source: Plan_Terms_UnlimitedPlus.pdf)",
            ),
            (
                "halluc_condition_dropped",
                None,
                "Roaming in 47 European destinations costs £2.25 for every day of your trip, whether or not you use the phone. There's a 30 GB monthly cap, then £3.13 per GB. [1]",
            ),
            (
                "halluc_number_destinations",
                "fail",
                "You can roam in 49 European destinations for £2.25 per day of use; roaming is capped at 30 GB a month, with £3.13 per GB beyond. (Source: Plan_Terms_UnlimitedPlus.pdf)",
            ),
            (
                "halluc_added_sentence",
                None,
                "Europe roaming costs £2.25 per day of use in 47 destinations, capped at 30 GB per month, with £3.13 per GB beyond that. Calls to local numbers while abroad are charged separately at 20p per minute. [1]",
            ),
        ],
    ),
    dict(
        id="tc-e2",
        domain=D,
        lang="en",
        doc="Plan_Terms_UnlimitedPlus.pdf",
        loc="p. 1",
        ctx=TEL_CTX,
        ct="composite",
        value=650.0,
        unit="GB",
        q="Is the 5G data on Unlimited Plus really unlimited?",
        ref="Yes, 5G data is unlimited, but after 650 GB in a month speeds may be reduced to 2 Mbps during busy periods; tethering is included up to 100 GB per month.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Fair-use threshold: 650 GB\n\nThe plan includes unlimited 5G data, but once you pass 650 GB in a month your speed may be cut to 2 Mbps at busy times. Tethering is included up to 100 GB a month. (Source: Plan_Terms_UnlimitedPlus.pdf)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "650 GB",
                {
                    "narrative_answer": "Data is unlimited, though after 650 GB in a month speeds may drop to 2 Mbps during busy periods. Tethering is included up to 100 GB per month."
                },
            ),
            (
                "faithful_table_meta",
                "pass",
                "Based on the retrieved documents:\n\n| Item | Limit |\n|---|---|\n| 5G data | unlimited |\n| Possible slow-down | to 2 Mbps in busy periods after 650 GB/month |\n| Tethering | up to 100 GB/month |",
            ),
            (
                "halluc_number",
                "fail",
                "Fair-use threshold: 650 GB\n\nData is unlimited, but after 650 GB in a month speeds may be reduced to 1 Mbps during busy periods. Tethering is included up to 100 GB per month. (Source: Plan_Terms_UnlimitedPlus.pdf)",
            ),
            (
                "halluc_hedge_removed",
                None,
                "Value: 650 GB\nData is unlimited until 650 GB; after that your speed is reduced to 2 Mbps at all times for the rest of the month. [1]",
            ),
            (
                "halluc_narrative_negation",
                "fail",
                "650 GB",
                {
                    "narrative_answer": "5G data is unlimited, with possible slow-downs to 2 Mbps in busy periods after 650 GB a month. Tethering is not included on this plan."
                },
            ),
        ],
    ),
    dict(
        id="tc-e3",
        domain=D,
        lang="en",
        doc="Plan_Terms_UnlimitedPlus.pdf",
        loc="p. 4",
        ctx=TEL_CTX,
        q="What is the early termination fee if I leave the 24-month contract early?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved plan terms don't state an early termination fee, so I can't answer this from the documents.",
            ),
            (
                "refusal_fab_amount",
                1,
                "The terms don't give an early termination fee. Usually you'd pay the remaining monthly charges, for example around £300 if a year remains, but please check your contract.",
            ),
        ],
    ),
    dict(
        id="tc-z1",
        domain=D,
        lang="zh",
        doc="畅享5G套餐协议.pdf",
        loc="第2条",
        ctx=CN_TEL_CTX,
        q="129元套餐提前解约怎么收费？能不能降档？",
        ref="需签订24个月合约，合约期内提前解约需支付剩余月份月费总额30%的违约金；合约期内不可降档至低于99元的套餐，合约期满后可随时变更套餐。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "这个套餐要签24个月合约。合约期内提前解约，要按剩余月份月费总额的30%支付违约金；合约期内不能降到99元以下的套餐，合约期满后可以随时变更。（来源：畅享5G套餐协议.pdf）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n- 合约期：24个月\n- 提前解约：支付剩余月份月费总额30%的违约金\n- 降档：合约期内不可低于99元\n- 合约期满：自动续约，可随时变更套餐\n[1]",
            ),
            (
                "faithful_reordered_label",
                "pass",
                "Source: 畅享5G套餐协议.pdf\n\n合约期满后会自动续约，届时可随时改套餐；在24个月合约期内，不能降到低于99元的套餐，提前解约需付剩余月份月费总额30%的违约金。",
            ),
            ("faithful_subset", None, "副卡每张月费10元，最多办2张，可共享主卡的流量和通话。[1]"),
            (
                "halluc_number",
                "fail",
                "需签订24个月合约，合约期内提前解约需支付剩余月份月费总额50%的违约金；合约期内不可降档至低于99元的套餐。（来源：畅享5G套餐协议.pdf）",
            ),
            (
                "halluc_threshold",
                "fail",
                "合约期24个月，提前解约需支付剩余月份月费总额30%的违约金；合约期内不可降档至低于79元的套餐。[1]",
            ),
            (
                "halluc_negation",
                "fail",
                "合约期内提前解约需支付剩余月份月费总额30%的违约金，合约期内不可降档至低于99元的套餐；合约期满后也不能变更套餐。（来源：畅享5G套餐协议.pdf）",
            ),
            (
                "halluc_added_sentence",
                None,
                "提前解约需支付剩余月份月费总额30%的违约金，合约期内不可降档至低于99元。违约金最高不超过500元。[1]",
            ),
        ],
    ),
    dict(
        id="tc-z2",
        domain=D,
        lang="zh",
        doc="畅享5G套餐协议.pdf",
        loc="第1条",
        ctx=CN_TEL_CTX,
        ct="composite",
        value=5.0,
        unit="元/GB",
        q="129元套餐用完流量后怎么收费？",
        ref="套餐外国内流量按5元/GB计费，当月达到15元后按3GB/15元收取，超出部分不再收费直至满3GB。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "套餐外流量单价：5元/GB\n套餐内含60GB国内通用流量，超出后按5元/GB计费；当月达到15元后改按3GB/15元收取，不满3GB的部分不再额外收费。（来源：畅享5G套餐协议.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "5元/GB",
                {
                    "narrative_answer": "流量用完后按5元/GB计费；当月套餐外流量费达到15元后，按每3GB收15元计费，超出部分在满3GB前不再收费。"
                },
            ),
            (
                "faithful_hedged_meta",
                "pass",
                "数值：5 元/GB\n根据检索到的文档：套餐外流量一般按5元/GB收取，当月满15元后按3GB/15元计费[1]。",
            ),
            (
                "halluc_number",
                "fail",
                "套餐外流量单价：5元/GB\n超出后按5元/GB计费，当月达到15元后按3GB/20元收取。（来源：畅享5G套餐协议.pdf）",
            ),
            ("halluc_unit", None, "套餐外国内流量按5元/MB计费，当月达到15元后按3GB/15元收取。[1]"),
            (
                "halluc_narrative_added",
                None,
                "5元/GB",
                {
                    "narrative_answer": "套餐外流量按5元/GB计费，达到15元后按3GB/15元收取。当月总流量超过100GB后将限速至1Mbps。"
                },
            ),
        ],
    ),
    dict(
        id="tc-z3",
        domain=D,
        lang="zh",
        doc="畅享5G套餐协议.pdf",
        loc="第1条",
        ctx=CN_TEL_CTX,
        q="129元套餐在香港漫游怎么收费？",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "检索到的套餐协议没有涉及港澳台或国际漫游资费，无法根据文档回答。",
            ),
            (
                "refusal_fab_amount_year",
                2,
                "文档未涉及漫游资费。港澳漫游一般为每天25元，2025年起部分地区调整为每天18元，请咨询运营商客服。",
            ),
        ],
    ),
]
