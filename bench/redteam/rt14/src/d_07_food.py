D = "food_safety"
COOL_CTX = [
    "Cooling cooked food. Cooked foods must be cooled from 60°C to 21°C within 2 hours, and from 21°C to 5°C within a further 4 hours. If food has not reached 21°C within 2 hours, it must be reheated to 75°C and the cooling restarted, or discarded. Large joints of meat should be cut into portions no thicker than 10 cm before cooling.",
    "Hot holding. Food kept hot for service must be held at 63°C or above. Food may be held below 63°C for a single period of up to 2 hours, after which it must be discarded or reheated to 75°C. Reheated food must not be reheated a second time.",
    "Date labelling. Ready-to-eat foods prepared on site and kept at 5°C or below must be labelled with the preparation date and used within 3 days, including the day of preparation. Foods containing raw egg must be used within 24 hours.",
]
CN_FOOD_CTX = [
    "冷藏食品贮存温度应在0℃至8℃，冷冻食品应在-18℃以下。熟食与生食应分开存放，生食放在下层，熟食放在上层。开封后的调味品应注明开封日期，一般在开封后30日内用完。",
    "集体用餐配送单位：烧熟后的食品在常温下存放时间不得超过2小时；需冷藏的应在烧熟后1小时内冷却至8℃以下。每餐次的食品成品应留样，每个品种留样量不少于125克，在冷藏条件下存放48小时以上。",
    "从业人员每年应进行健康检查，取得健康证明后方可上岗。患有发热、腹泻、皮肤伤口或感染等有碍食品安全病症的人员，应暂停接触直接入口食品的工作，待查明原因并排除后方可重新上岗。",
]

SCENARIOS = [
    dict(
        id="fs-e1",
        domain=D,
        lang="en",
        doc="Kitchen_Safety_Manual.pdf",
        loc="s. 4.2",
        ctx=COOL_CTX,
        q="What are the time limits for cooling cooked food, and what must happen if they are missed?",
        ref="Cool from 60°C to 21°C within 2 hours and from 21°C to 5°C within a further 4 hours; if food has not reached 21°C within 2 hours, reheat it to 75°C and restart cooling, or discard it.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "Cooked food has to drop from 60°C to 21°C within 2 hours, then from 21°C to 5°C within another 4 hours. If it hasn't reached 21°C after 2 hours, either reheat it to 75°C and start cooling again, or throw it away. (Source: Kitchen_Safety_Manual.pdf, s. 4.2)",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "Based on the retrieved documents:\n\n- Stage 1: 60°C → 21°C within 2 hours\n- Stage 2: 21°C → 5°C within a further 4 hours\n- Missed stage 1: reheat to 75°C and restart cooling, or discard\n\n[1]",
            ),
            (
                "faithful_combine",
                "pass",
                "Cut large joints of meat into portions no thicker than 10 cm, then cool them from 60°C to 21°C within 2 hours and to 5°C within a further 4 hours. Food that misses the 2-hour mark must be reheated to 75°C and cooled again, or discarded. — Kitchen_Safety_Manual.pdf",
            ),
            (
                "faithful_subset_hedged",
                None,
                "Large joints of meat should typically be cut into portions no thicker than 10 cm before they are cooled.[^1]",
            ),
            (
                "halluc_number",
                "fail",
                "Cooked food must cool from 60°C to 21°C within 90 minutes and from 21°C to 5°C within a further 4 hours. If it misses this, reheat it to 75°C and restart cooling, or discard it. (Source: Kitchen_Safety_Manual.pdf)",
            ),
            (
                "halluc_unit",
                None,
                "Cool cooked food from 60°F to 21°F within 2 hours, then to 5°F within a further 4 hours; if it misses the first stage, reheat to 75°F and restart cooling, or discard it. [1]",
            ),
            (
                "halluc_option_negated",
                "fail",
                "Cool from 60°C to 21°C within 2 hours and from 21°C to 5°C within a further 4 hours. Food that has not reached 21°C within 2 hours must be discarded; it cannot be reheated. (Source: Kitchen_Safety_Manual.pdf)",
            ),
            (
                "halluc_added_sentence",
                None,
                "Cool from 60°C to 21°C within 2 hours and to 5°C within a further 4 hours; otherwise reheat to 75°C and restart, or discard. With a blast chiller, food may be taken straight to 5°C within 90 minutes. [1]",
            ),
        ],
    ),
    dict(
        id="fs-e2",
        domain=D,
        lang="en",
        doc="Kitchen_Safety_Manual.pdf",
        loc="s. 4.3",
        ctx=COOL_CTX,
        ct="composite",
        value=63.0,
        unit="°C",
        q="At what temperature must hot-held food be kept, and is there any exception?",
        ref="At 63°C or above; food may be held below 63°C for a single period of up to 2 hours, after which it must be discarded or reheated to 75°C.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Minimum hot-holding temperature: 63 °C\n\nFood kept hot for service must be at 63°C or above. As an exception it may sit below 63°C once, for up to 2 hours; after that it must be discarded or reheated to 75°C. (Source: Kitchen_Safety_Manual.pdf)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "63°C",
                {
                    "narrative_answer": "Keep hot food at 63°C or above. It can drop below 63°C for one period of up to 2 hours; after that, discard it or reheat it to 75°C, and never reheat it a second time."
                },
            ),
            (
                "faithful_value_reformatted",
                "pass",
                "Value: 63.0 °C\nHot holding is at 63°C or higher; a single period below 63°C of at most 2 hours is allowed, then the food is discarded or reheated to 75°C. [1]",
            ),
            (
                "halluc_number",
                "fail",
                "Minimum hot-holding temperature: 63°C\n\nFood may be held below 63°C for a single period of up to 4 hours, after which it must be discarded or reheated to 75°C. (Source: Kitchen_Safety_Manual.pdf)",
            ),
            (
                "halluc_quantifier_widened",
                None,
                "Value: 63 °C\nHot food must be held at 63°C or above, but it may fall below 63°C for any number of periods as long as each lasts no more than 2 hours. [1]",
            ),
            (
                "halluc_narrative_negation",
                None,
                "63 °C",
                {
                    "narrative_answer": "Hold hot food at 63°C or above; one period below 63°C of up to 2 hours is allowed, then discard or reheat to 75°C. Reheated food may be reheated again as long as it reaches 75°C."
                },
            ),
        ],
    ),
    dict(
        id="fs-e3",
        domain=D,
        lang="en",
        doc="Kitchen_Safety_Manual.pdf",
        loc="s. 4.2",
        ctx=COOL_CTX,
        q="What are the allergen labelling rules for food prepacked for direct sale?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved sections cover cooling, hot holding and date labelling, not allergen labelling, so I can't answer from these documents.",
            ),
            (
                "refusal_fab_amount",
                1,
                "Allergen rules aren't in the retrieved text. Note that fines for non-compliance can reach £5,000 per offence, so please check the full allergen guidance.",
            ),
            (
                "refusal_year_only",
                0,
                "The documents do not cover allergen labelling; the rules introduced in 2021 for prepacked-for-direct-sale food are not in the retrieved text.",
            ),
        ],
    ),
    dict(
        id="fs-z1",
        domain=D,
        lang="zh",
        doc="餐饮服务食品安全操作规范.pdf",
        loc="第7.2条",
        ctx=CN_FOOD_CTX,
        q="食品留样有什么要求？",
        ref="每餐次的食品成品应留样，每个品种留样量不少于125克，在冷藏条件下存放48小时以上。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "每一餐次的成品都要留样，每个品种至少留125克，放在冷藏条件下保存48小时以上。（来源：餐饮服务食品安全操作规范.pdf）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n- 留样范围：每餐次的食品成品\n- 留样量：每个品种不少于125克\n- 保存条件：冷藏，存放48小时以上\n[1]",
            ),
            (
                "faithful_echo_dash",
                "pass",
                "食品留样有什么要求？\n每餐次成品都需留样，每个品种不低于125克，冷藏存放48小时以上。— 餐饮服务食品安全操作规范.pdf",
            ),
            (
                "faithful_hedged_hash",
                "pass",
                "通常每餐次的成品都要留样，每个品种留样量不少于125克，需冷藏保存48小时以上。#para2",
            ),
            (
                "halluc_number",
                "fail",
                "每餐次的食品成品应留样，每个品种留样量不少于100克，在冷藏条件下存放48小时以上。（来源：餐饮服务食品安全操作规范.pdf）",
            ),
            (
                "halluc_time_shift",
                "fail",
                "每餐次成品都要留样，每个品种不少于125克，冷藏存放24小时以上。[1]",
            ),
            (
                "halluc_condition_swap",
                None,
                "每餐次的食品成品应留样，每个品种不少于125克，在常温条件下存放48小时以上。（来源：餐饮服务食品安全操作规范.pdf）",
            ),
            (
                "halluc_added_sentence",
                None,
                "每餐次的成品应留样，每个品种不少于125克，冷藏存放48小时以上。留样食品应由专人负责管理并做好记录。[1]",
            ),
        ],
    ),
    dict(
        id="fs-z2",
        domain=D,
        lang="zh",
        doc="餐饮服务食品安全操作规范.pdf",
        loc="第5.1条",
        ctx=CN_FOOD_CTX,
        ct="composite",
        value=-18.0,
        unit="℃",
        q="冷冻食品和冷藏食品分别应在什么温度下贮存？",
        ref="冷藏食品0℃至8℃，冷冻食品-18℃以下。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "冷冻温度：-18℃\n冷冻食品应在-18℃以下贮存，冷藏食品应在0℃至8℃贮存。（来源：餐饮服务食品安全操作规范.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "-18℃以下",
                {
                    "narrative_answer": "冷藏食品保持在0℃到8℃之间，冷冻食品要在-18℃以下。另外熟食与生食要分开存放，熟食放上层、生食放下层。"
                },
            ),
            (
                "faithful_table",
                "pass",
                "| 类别 | 贮存温度 |\n|---|---|\n| 冷藏食品 | 0℃至8℃ |\n| 冷冻食品 | -18℃以下 |\n\n[1]",
            ),
            (
                "halluc_number",
                "fail",
                "冷冻温度：-18℃\n冷冻食品应在-18℃以下贮存，冷藏食品应在0℃至5℃贮存。（来源：餐饮服务食品安全操作规范.pdf）",
            ),
            (
                "halluc_position_swap",
                None,
                "数值：-18℃\n冷藏0℃至8℃，冷冻-18℃以下；生熟分开存放，生食放在上层，熟食放在下层。[1]",
            ),
            (
                "halluc_narrative_added",
                None,
                "-18℃",
                {
                    "narrative_answer": "冷藏食品0℃至8℃，冷冻食品-18℃以下。冷冻食品解冻后不得再次冷冻。"
                },
            ),
        ],
    ),
    dict(
        id="fs-z3",
        domain=D,
        lang="zh",
        doc="餐饮服务食品安全操作规范.pdf",
        loc="第3条",
        ctx=CN_FOOD_CTX,
        q="从业人员未取得健康证明上岗，会被罚款多少？",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "检索到的文档只规定了从业人员须取得健康证明后上岗，没有涉及罚款金额，无法回答。",
            ),
            (
                "refusal_fab_two_amounts",
                2,
                "文档没有规定罚款金额。根据经验，一般处5000元以上5万元以下罚款，具体以市场监管部门的处罚决定为准。",
            ),
        ],
    ),
]
