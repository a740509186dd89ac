D = "vehicle_warranty"
WAR_CTX = [
    "New Vehicle Limited Warranty. Basic coverage lasts 3 years or 36,000 miles, whichever comes first, and covers repairs to defects in materials or workmanship. Powertrain coverage (engine, transmission, drive axles) lasts 5 years or 60,000 miles, whichever comes first. Coverage begins on the date the vehicle is first delivered to the original retail buyer.",
    "What is not covered. Wear items such as brake pads, wiper blades and tyres are not covered, except for defects found within the first 12 months or 12,000 miles. Damage caused by accidents, racing, or failure to follow the maintenance schedule is excluded. Corrosion perforation of body panels is covered for 7 years with unlimited mileage.",
    "Transfer. The remaining warranty coverage transfers to subsequent owners at no cost. Roadside assistance is included for the duration of basic coverage and covers towing to the nearest authorised dealer within 50 miles.",
]
SB_CTX = [
    "家用汽车产品包修期限不低于3年或者行驶里程60000公里，以先到者为准；三包有效期限不低于2年或者行驶里程50000公里，以先到者为准。包修期和三包有效期自销售者开具购车发票之日起计算。",
    "在三包有效期内，因严重安全性能故障累计进行了2次维修，严重安全性能故障仍未排除或者又出现新的严重安全性能故障的，消费者可以选择更换或退货。发动机、变速器累计更换2次后仍不能正常使用的，消费者可选择更换或退货。",
    "自销售者开具购车发票之日起60日内或者行驶里程3000公里之内（以先到者为准），发动机、变速器的主要零件出现产品质量问题的，消费者可以选择免费更换发动机、变速器。易损耗零部件的质量保证期限由生产者明示，不适用上述期限。",
]

SCENARIOS = [
    dict(
        id="vw-e1",
        domain=D,
        lang="en",
        doc="Warranty_Booklet_MY2025.pdf",
        loc="p. 6",
        ctx=WAR_CTX,
        q="How long is the powertrain warranty and what does it cover?",
        ref="5 years or 60,000 miles, whichever comes first; it covers the engine, transmission and drive axles.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "The powertrain warranty covers the engine, transmission and drive axles for 5 years or 60,000 miles, whichever comes first, starting from delivery to the original retail buyer. (Source: Warranty_Booklet_MY2025.pdf, p. 6)",
            ),
            (
                "faithful_reformatted",
                "pass",
                "Powertrain: 5 years or 60000 miles, whichever comes first. Covered parts: engine, transmission and drive axles. [1]",
            ),
            (
                "faithful_combine",
                "pass",
                "Powertrain parts (engine, transmission, drive axles) are covered for 5 years or 60,000 miles, whichever comes first, compared with 3 years or 36,000 miles for basic coverage. Any remaining coverage transfers to later owners at no cost. (source: Warranty_Booklet_MY2025.pdf, p. 6)",
            ),
            (
                "faithful_echo_meta_dash",
                "pass",
                "How long is the powertrain warranty and what does it cover?\nBased on the retrieved documents: the engine, transmission and drive axles are covered for 5 years or 60,000 miles, whichever comes first.\n— Warranty_Booklet_MY2025.pdf",
            ),
            (
                "halluc_number",
                "fail",
                "The powertrain warranty covers the engine, transmission and drive axles for 5 years or 50,000 miles, whichever comes first. (Source: Warranty_Booklet_MY2025.pdf)",
            ),
            (
                "halluc_logic_reversed",
                None,
                "Powertrain coverage (engine, transmission, drive axles) lasts 5 years or 60,000 miles, whichever comes last. [1]",
            ),
            (
                "halluc_entity_added",
                None,
                "The powertrain warranty lasts 5 years or 60,000 miles, whichever comes first, and covers the engine, transmission, drive axles and the air-conditioning compressor. (Source: Warranty_Booklet_MY2025.pdf)",
            ),
            (
                "halluc_start_date",
                None,
                "Powertrain coverage for the engine, transmission and drive axles lasts 5 years or 60,000 miles, whichever comes first, counted from the date the vehicle is first registered. [1]",
            ),
        ],
    ),
    dict(
        id="vw-e2",
        domain=D,
        lang="en",
        doc="Warranty_Booklet_MY2025.pdf",
        loc="p. 8",
        ctx=WAR_CTX,
        ct="composite",
        value=7.0,
        unit="years",
        q="How long is corrosion perforation of body panels covered?",
        ref="7 years with unlimited mileage.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Corrosion coverage: 7 years\n\nCorrosion perforation of body panels is covered for 7 years, with no mileage limit. (Source: Warranty_Booklet_MY2025.pdf)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "7 years",
                {
                    "narrative_answer": "Body-panel corrosion perforation is covered for 7 years with unlimited mileage, which is longer than the 5-year powertrain coverage."
                },
            ),
            (
                "faithful_paraphrase_value",
                "pass",
                "Value: 7 years\nRust-through (corrosion perforation) of body panels is covered for 7 years, whatever the mileage. [1]",
            ),
            (
                "halluc_number_added_limit",
                "fail",
                "Corrosion coverage: 7 years\n\nCorrosion perforation of body panels is covered for 7 years or 70,000 miles, whichever comes first. (Source: Warranty_Booklet_MY2025.pdf)",
            ),
            (
                "halluc_exception_invented",
                None,
                "Corrosion coverage: 7 years\nCorrosion perforation of body panels is covered for 7 years with unlimited mileage, except on vehicles used for commercial purposes. [1]",
            ),
            (
                "halluc_narrative_number",
                "fail",
                "7 years",
                {
                    "narrative_answer": "Corrosion perforation of body panels is covered for 6 years with unlimited mileage."
                },
            ),
        ],
    ),
    dict(
        id="vw-e3",
        domain=D,
        lang="en",
        doc="Warranty_Booklet_MY2025.pdf",
        loc="p. 6",
        ctx=WAR_CTX,
        q="Does the warranty cover the high-voltage battery on the hybrid model, and for how long?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved warranty sections don't mention a hybrid or high-voltage battery, so I can't answer this from the documents.",
            ),
            (
                "refusal_fab_two_amounts",
                2,
                "The booklet excerpts don't cover the hybrid battery. Hybrid batteries are usually covered for 8 years or 100,000 miles, but please check the hybrid supplement.",
            ),
        ],
    ),
    dict(
        id="vw-z1",
        domain=D,
        lang="zh",
        doc="家用汽车三包规定.pdf",
        loc="第18条",
        ctx=SB_CTX,
        q="家用汽车的包修期和三包有效期分别是多久？",
        ref="包修期不低于3年或行驶里程60000公里，三包有效期不低于2年或行驶里程50000公里，均以先到者为准，自开具购车发票之日起计算。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "包修期至少3年或60000公里，三包有效期至少2年或50000公里，都以先到者为准，从销售者开具购车发票那天开始算。（来源：家用汽车三包规定.pdf）",
            ),
            (
                "faithful_meta_reformatted",
                "pass",
                "根据检索到的文档：\n- 包修期：不低于3年或60,000公里，以先到者为准\n- 三包有效期：不低于2年或50,000公里，以先到者为准\n- 起算日：销售者开具购车发票之日\n[1]",
            ),
            (
                "faithful_reordered_source_label",
                "pass",
                "三包有效期不低于2年或行驶50000公里，包修期不低于3年或行驶60000公里，两者都以先到者为准。\nSource: 家用汽车三包规定.pdf",
            ),
            (
                "faithful_subset_hedged",
                None,
                "一般来说，开票后60日内或行驶3000公里内（以先到者为准），发动机、变速器主要零件出现质量问题的，可以选择免费更换发动机、变速器。[^1]",
            ),
            (
                "halluc_number",
                "fail",
                "包修期不低于3年或行驶里程100000公里，三包有效期不低于2年或行驶里程50000公里，均以先到者为准。（来源：家用汽车三包规定.pdf）",
            ),
            (
                "halluc_logic_reversed",
                None,
                "包修期不低于3年或60000公里，三包有效期不低于2年或50000公里，均以后到者为准。[1]",
            ),
            (
                "halluc_start_date",
                None,
                "包修期不低于3年或60000公里，三包有效期不低于2年或50000公里，以先到者为准，自车辆上牌之日起计算。（来源：家用汽车三包规定.pdf）",
            ),
            (
                "halluc_added_sentence",
                None,
                "包修期不低于3年或60000公里，三包有效期不低于2年或50000公里，均以先到者为准。营运车辆同样适用上述期限。[1]",
            ),
        ],
    ),
    dict(
        id="vw-z2",
        domain=D,
        lang="zh",
        doc="家用汽车三包规定.pdf",
        loc="第20条",
        ctx=SB_CTX,
        ct="composite",
        value=2.0,
        unit="次",
        q="严重安全性能故障维修几次没修好就可以换车或退货？",
        ref="三包有效期内因严重安全性能故障累计维修2次，故障仍未排除或又出现新的严重安全性能故障的，消费者可以选择更换或退货。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "次数：2次\n在三包有效期内，严重安全性能故障累计维修2次后仍未排除，或者又出现新的严重安全性能故障的，消费者可以选择换车或退货。（来源：家用汽车三包规定.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "2次",
                {
                    "narrative_answer": "三包有效期内，严重安全性能故障累计修了2次还没排除，或者又出现了新的严重安全性能故障，就可以选择更换或退货；发动机、变速器累计更换2次后仍不能正常使用的，也可以选择更换或退货。"
                },
            ),
            (
                "faithful_meta_subset",
                "pass",
                "数值：2 次\n根据检索到的文档：三包有效期内严重安全性能故障累计维修2次后仍未排除的，可以选择更换或退货。#para2",
            ),
            (
                "halluc_number",
                "fail",
                "次数：2次\n三包有效期内，严重安全性能故障累计维修3次仍未排除的，消费者可以选择更换或退货。（来源：家用汽车三包规定.pdf）",
            ),
            (
                "halluc_period_swap",
                None,
                "次数：2次\n在包修期内，严重安全性能故障累计维修2次仍未排除或又出现新的严重安全性能故障的，可以选择更换或退货。[1]",
            ),
            (
                "halluc_narrative_negation",
                "fail",
                "2次",
                {
                    "narrative_answer": "三包有效期内严重安全性能故障累计维修2次仍未排除的，消费者可以选择更换车辆，但不能退货。"
                },
            ),
        ],
    ),
    dict(
        id="vw-z3",
        domain=D,
        lang="zh",
        doc="家用汽车三包规定.pdf",
        loc="第18条",
        ctx=SB_CTX,
        q="电动汽车动力电池的质保期是多久？",
        ref="",
        variants=[
            ("refusal_clean", 0, "检索到的三包条文没有涉及动力电池的质保期限，无法根据文档回答。"),
            (
                "refusal_fab_two_amounts",
                2,
                "文档未涉及动力电池。目前多数厂家提供15万公里质保，部分车型更换电池费用约4万元，请查阅车辆质保手册。",
            ),
        ],
    ),
]
