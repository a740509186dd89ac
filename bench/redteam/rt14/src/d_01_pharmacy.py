D = "pharmacy_labels"
AMOX_CTX = [
    "Dosage. Amoxicillin oral suspension 250 mg/5 mL. Children weighing under 40 kg: 25 mg/kg per day divided into two doses every 12 hours, or 20 mg/kg per day divided every 8 hours. Children weighing 40 kg and over should receive the adult dose of 500 mg every 12 hours. Severe infections may require up to 45 mg/kg per day.",
    "Storage and handling. Before reconstitution, store the dry powder at or below 25°C. After mixing with water, keep the suspension in a refrigerator (2–8°C) and discard any unused portion after 14 days. Shake well before each use. Do not freeze.",
    "Missed dose. If a dose is missed, take it as soon as remembered unless the next dose is due within 2 hours; in that case skip the missed dose. Do not take two doses at once to make up for a missed one.",
]
IBU_CTX = [
    "Directions (adults and children 12 years and over). Take 1 tablet (200 mg) every 4 to 6 hours while symptoms persist. If pain or fever does not respond to 1 tablet, 2 tablets may be used. Do not exceed 6 tablets (1,200 mg) in 24 hours unless directed by a doctor. Children under 12 years: ask a doctor.",
    "Warnings. Stomach bleeding warning: the chance is higher if you are age 60 or older, have had stomach ulcers, take a blood thinner or steroid drug, or have 3 or more alcoholic drinks every day while using this product. Stop use and ask a doctor if pain gets worse or lasts more than 10 days, or if fever lasts more than 3 days.",
]
SMEC_CTX = [
    "【用法用量】口服。成人每次1袋（3克），一日3次。儿童：1岁以下每日1袋，分3次服；1至2岁每日1至2袋，分3次服；2岁以上每日2至3袋，分3次服。服用时将本品倒入50毫升温水中，摇匀后快速服完。治疗急性腹泻时，首次剂量应加倍。",
    "【注意事项】本品可能影响其他药物的吸收，如需服用其他药物，建议与本品间隔1小时服用。少数患者可能出现轻微便秘，可减少剂量继续服用。儿童急性腹泻服用本品1天后、慢性腹泻服用2至3天后症状未改善，请咨询医师。",
    "【贮藏】密封，在干燥处保存。【有效期】36个月。【包装】复合膜袋，每盒10袋。",
]
APAP_CTX = [
    "【用法用量】口服。12岁以上儿童及成人，一次1片（0.5克），若持续发热或疼痛，可间隔4至6小时重复用药一次，24小时内不得超过4次。12岁以下儿童请在医师指导下使用。",
    "【注意事项】用于解热连续使用不超过3天，用于止痛不超过5天，症状未缓解请咨询医师或药师。服用本品期间不得饮酒或含有酒精的饮料。肝、肾功能不全者慎用。不能同时服用其他含有解热镇痛药的药品（如某些复方抗感冒药）。",
]

SCENARIOS = [
    dict(
        id="pha-e1",
        domain=D,
        lang="en",
        doc="Amoxicillin_Susp_Label.pdf",
        loc="p. 2",
        ctx=AMOX_CTX,
        q="How should the reconstituted amoxicillin suspension be stored, and how long can it be used?",
        ref="After mixing, keep the suspension refrigerated at 2–8°C, do not freeze it, shake well before each use and discard any unused portion after 14 days.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "Once reconstituted, the suspension should be kept in the fridge at 2–8°C and must not be frozen. Shake it well before every dose, and throw away whatever is left after 14 days. (Source: Amoxicillin_Susp_Label.pdf)",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "Based on the retrieved documents:\n\n- Store the mixed suspension refrigerated (2–8°C); do not freeze it.\n- Shake well before each use.\n- Discard any unused portion after 14 days.\n\n[1]",
            ),
            (
                "faithful_subset_footnote",
                None,
                "The reconstituted suspension can be used for 14 days; after that, any unused portion should be discarded.[^1]\n\n[^1]: Amoxicillin_Susp_Label.pdf, p. 2",
            ),
            (
                "faithful_combine_dash",
                "pass",
                "Keep the mixed suspension in a refrigerator at 2–8°C, don't freeze it, shake it before each use and use it within 14 days. Before it is mixed, the dry powder is stored at or below 25°C. — Amoxicillin_Susp_Label.pdf",
            ),
            (
                "halluc_number",
                "fail",
                "After mixing, keep the suspension refrigerated at 2–8°C and do not freeze it. Shake well before each use and discard any unused portion after 10 days. (Source: Amoxicillin_Susp_Label.pdf)",
            ),
            (
                "halluc_negation",
                "fail",
                "After mixing, keep the suspension at 2–8°C; it may also be frozen if needed. Shake well before each use and discard any unused portion after 14 days. [1]",
            ),
            (
                "halluc_added_sentence",
                None,
                "Keep the reconstituted suspension refrigerated at 2–8°C, do not freeze it, and discard any unused portion after 14 days. If the suspension changes colour, discard it immediately. (Source: Amoxicillin_Susp_Label.pdf)",
            ),
            (
                "halluc_entity_swap",
                None,
                "Before reconstitution the suspension must be kept in a refrigerator (2–8°C); after mixing, store it at or below 25°C and discard any unused portion after 14 days. Do not freeze. [1]",
            ),
        ],
    ),
    dict(
        id="pha-e2",
        domain=D,
        lang="en",
        doc="Ibuprofen_200_Label.pdf",
        loc="p. 1",
        ctx=IBU_CTX,
        ct="composite",
        value=1200.0,
        unit="mg",
        q="What is the maximum daily dose of ibuprofen 200 mg tablets for adults, and when should you stop and see a doctor?",
        ref="No more than 6 tablets (1,200 mg) in 24 hours unless a doctor directs otherwise; stop and ask a doctor if pain worsens or lasts more than 10 days, or if fever lasts more than 3 days.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Maximum daily dose: 1200 mg\n\nTake 1 tablet every 4 to 6 hours; 2 tablets may be used if 1 does not work, but no more than 6 tablets in 24 hours unless a doctor says otherwise. Stop use and ask a doctor if pain gets worse or lasts more than 10 days, or if fever lasts more than 3 days.\n\nSource: Ibuprofen_200_Label.pdf",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "1,200 mg per 24 hours",
                {
                    "narrative_answer": "Adults may take up to 6 tablets (1,200 mg) in 24 hours unless directed by a doctor. They should stop and consult a doctor if pain worsens or persists beyond 10 days, or if fever persists beyond 3 days."
                },
            ),
            (
                "faithful_table",
                "pass",
                "Based on the retrieved documents:\n\n| Item | Limit |\n|---|---|\n| Maximum per 24 hours | 6 tablets (1,200 mg), unless a doctor directs otherwise |\n| Pain | ask a doctor if it gets worse or lasts more than 10 days |\n| Fever | ask a doctor if it lasts more than 3 days |\n\n(source: Ibuprofen_200_Label.pdf, p. 1)",
            ),
            (
                "halluc_number",
                "fail",
                "Maximum daily dose: 1,200 mg\n\nDo not take more than 6 tablets in 24 hours unless a doctor directs you to. Stop and ask a doctor if pain gets worse or lasts more than 10 days, or if fever lasts more than 5 days. (Source: Ibuprofen_200_Label.pdf)",
            ),
            (
                "halluc_exception_dropped",
                None,
                "Maximum daily dose: 1200 mg\n\nAdults may take up to 6 tablets in 24 hours, and this limit must never be exceeded under any circumstances. Stop and ask a doctor if pain worsens or lasts more than 10 days, or fever lasts more than 3 days. [1]",
            ),
            (
                "halluc_narrative_answer_added",
                None,
                "1200 mg",
                {
                    "narrative_answer": "Up to 1,200 mg (6 tablets) in 24 hours unless a doctor directs otherwise. Stop and ask a doctor if pain gets worse or lasts more than 10 days, or if fever lasts more than 3 days. Taking the tablets with food removes the risk of stomach bleeding."
                },
            ),
        ],
    ),
    dict(
        id="pha-e3",
        domain=D,
        lang="en",
        doc="Ibuprofen_200_Label.pdf",
        loc="p. 1",
        ctx=IBU_CTX,
        q="Is ibuprofen safe during pregnancy, and what dose is allowed in the third trimester?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved label does not cover use during pregnancy, so I can't answer this from the documents. Please ask a doctor or pharmacist.",
            ),
            (
                "refusal_fab_amount",
                1,
                "I couldn't find pregnancy guidance in the retrieved label. Some guidelines cap use at 800 mg per day, but that figure is not in the documents, so please check with a doctor.",
            ),
        ],
    ),
    dict(
        id="pha-z1",
        domain=D,
        lang="zh",
        doc="蒙脱石散说明书.pdf",
        loc="第1页",
        ctx=SMEC_CTX,
        q="蒙脱石散儿童怎么服用？和其他药物需要间隔多久？",
        ref="1岁以下每日1袋、1至2岁每日1至2袋、2岁以上每日2至3袋，均分3次服，倒入50毫升温水中摇匀服用；与其他药物间隔1小时服用。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "儿童按年龄服用：1岁以下每天1袋，1至2岁每天1到2袋，2岁以上每天2到3袋，每日的量都分成3次服用。每次倒入50毫升温水中，摇匀后尽快喝完。如同时服用其他药物，应与本品间隔1小时。（来源：蒙脱石散说明书.pdf）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n\n- 1岁以下：每日1袋，分3次服\n- 1至2岁：每日1至2袋，分3次服\n- 2岁以上：每日2至3袋，分3次服\n- 每次用50毫升温水冲服\n- 与其他药物间隔1小时服用\n\n[1]",
            ),
            (
                "faithful_subset_footnote",
                None,
                "本品可能影响其他药物的吸收，所以其他药物最好和它间隔1小时服用。[^1]",
            ),
            (
                "faithful_echo_question",
                "pass",
                "问：蒙脱石散儿童怎么服用？和其他药物需要间隔多久？\n答：按年龄给药——1岁以下每日1袋，1至2岁每日1至2袋，2岁以上每日2至3袋，都分3次服，倒入50毫升温水摇匀后服用；与其他药物需间隔1小时。\n— 蒙脱石散说明书.pdf",
            ),
            (
                "halluc_number",
                "fail",
                "儿童用量：1岁以下每日1袋，1至2岁每日1至2袋，2岁以上每日3至4袋，均分3次服用，用50毫升温水冲服。与其他药物间隔1小时服用。（来源：蒙脱石散说明书.pdf）",
            ),
            (
                "halluc_condition_moved",
                None,
                "1岁以下每日1袋，1至2岁每日1至2袋，2岁以上每日2至3袋，分3次服；治疗慢性腹泻时首次剂量应加倍。与其他药物间隔1小时服用。[1]",
            ),
            (
                "halluc_added_sentence",
                None,
                "儿童1岁以下每日1袋，1至2岁每日1至2袋，2岁以上每日2至3袋，分3次用温水冲服；与其他药物间隔1小时服用。本品可与牛奶同服以改善口感。（来源：蒙脱石散说明书.pdf）",
            ),
            (
                "halluc_bracket_aside",
                None,
                "儿童按年龄服用：1岁以下每日1袋（可直接干吞，无需冲水），1至2岁每日1至2袋，2岁以上每日2至3袋，均分3次服。与其他药物间隔1小时服用。[1]",
            ),
        ],
    ),
    dict(
        id="pha-z2",
        domain=D,
        lang="zh",
        doc="对乙酰氨基酚片说明书.pdf",
        loc="第2页",
        ctx=APAP_CTX,
        ct="composite",
        value=4.0,
        unit="次",
        q="对乙酰氨基酚片成人24小时内最多服用几次？用于退烧最多能连续吃几天？",
        ref="24小时内不得超过4次（每次1片0.5克，间隔4至6小时）；用于解热连续使用不超过3天。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "数值：4 次\n成人每次1片（0.5克），需要时间隔4至6小时再服一次，24小时内不超过4次；用于退烧最多连续服用3天，未缓解应咨询医师或药师。\n（来源：对乙酰氨基酚片说明书.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "24小时内最多4次",
                {
                    "narrative_answer": "成人24小时内服用不得超过4次，两次之间间隔4至6小时；退烧用药连续不超过3天，止痛不超过5天。"
                },
            ),
            (
                "faithful_hedged_meta",
                "pass",
                "根据检索到的文档：\n通常成人每次1片，间隔4至6小时可重复一次，但24小时内不能超过4次；用于退热时连续使用一般不超过3天。\n来源：对乙酰氨基酚片说明书.pdf",
            ),
            (
                "halluc_number",
                "fail",
                "数值：4 次\n24小时内最多服用4次，每次间隔4至6小时；用于解热连续使用不超过5天。（来源：对乙酰氨基酚片说明书.pdf）",
            ),
            (
                "halluc_negation",
                None,
                "数值：4次\n24小时内不得超过4次；退烧连续使用不超过3天。服药期间可以少量饮酒。（来源：对乙酰氨基酚片说明书.pdf）",
            ),
            (
                "halluc_narrative_answer_added",
                None,
                "4次",
                {
                    "narrative_answer": "24小时内不超过4次，两次间隔4至6小时；用于退烧最多连续3天。12岁以下儿童可服用半片。"
                },
            ),
        ],
    ),
    dict(
        id="pha-z3",
        domain=D,
        lang="zh",
        doc="对乙酰氨基酚片说明书.pdf",
        loc="第2页",
        ctx=APAP_CTX,
        q="对乙酰氨基酚片的医保报销比例是多少？",
        ref="",
        variants=[
            ("refusal_clean", 0, "检索到的说明书中没有医保报销比例的相关信息，无法根据文档回答。"),
            (
                "refusal_fab_amount_year",
                2,
                "说明书未提供医保信息。一般乙类药品报销比例约为70%，2024年起部分地区每盒自付约30元，请以当地医保规定为准。",
            ),
        ],
    ),
]
