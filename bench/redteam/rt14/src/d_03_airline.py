D = "airline_baggage"
BAG_CTX = [
    "Checked baggage allowance. Economy Saver fares include no checked bag; Economy Classic includes 1 bag of up to 23 kg; Business includes 2 bags of up to 32 kg each. The maximum dimensions of any checked bag are 158 cm (length + width + height). Bags weighing more than 32 kg are not accepted as checked baggage and must be sent as cargo.",
    "Excess and overweight fees. On flights within Europe, an additional bag costs EUR 60 if purchased online at least 24 hours before departure, or EUR 90 at the airport. Overweight bags between 23 kg and 32 kg incur a fee of EUR 75 per bag per flight. Frequent flyer Gold members receive one extra bag of 23 kg free of charge.",
    "Sports equipment. One set of golf clubs or skis per passenger may be carried in place of a standard checked bag at no extra charge, provided it weighs no more than 23 kg. Bicycles are charged EUR 50 per flight and must be packed in a box.",
]
CN_BAG_CTX = [
    "免费行李额：国内航班经济舱旅客免费托运行李额为20公斤，公务舱为30公斤，头等舱为40公斤。持成人或儿童票的旅客享受同等免费行李额；按婴儿票价购票的旅客无免费行李额，但可免费托运一辆折叠式婴儿车。",
    "逾重行李费：超出免费行李额的部分，每公斤按经济舱公布票价的1.5%收取逾重行李费。每件托运行李重量不得超过50公斤，体积不得超过40×60×100厘米，超过上述规定的行李须事先征得承运人同意方可托运。",
    "随身携带物品：经济舱旅客每人可随身携带1件物品，重量不超过5公斤；头等舱和公务舱旅客每人可随身携带2件物品，每件重量不超过5公斤。",
]

SCENARIOS = [
    dict(
        id="av-e1",
        domain=D,
        lang="en",
        doc="Baggage_Policy_2025.pdf",
        loc="p. 2",
        ctx=BAG_CTX,
        q="How much does an extra checked bag cost on a European flight, and what is the overweight fee?",
        ref="EUR 60 if bought online at least 24 hours before departure, or EUR 90 at the airport; bags between 23 kg and 32 kg cost EUR 75 per bag per flight.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "On flights within Europe, an extra bag is EUR 60 when bought online at least 24 hours before departure, or EUR 90 at the airport. A bag weighing between 23 kg and 32 kg is charged an overweight fee of EUR 75 per bag, per flight. (Source: Baggage_Policy_2025.pdf)",
            ),
            (
                "faithful_bullets_dash",
                "pass",
                "- Additional bag, bought online at least 24 h before departure: EUR 60\n- Additional bag bought at the airport: EUR 90\n- Overweight bag (23–32 kg): EUR 75 per bag per flight\n\n— Baggage_Policy_2025.pdf",
            ),
            (
                "faithful_combine_two",
                "pass",
                "An extra bag on a European flight costs EUR 60 online (at least 24 hours before departure) or EUR 90 at the airport, and overweight bags of 23–32 kg cost EUR 75 each per flight. Anything heavier than 32 kg is not accepted as checked baggage and has to go as cargo. [1][2]",
            ),
            (
                "faithful_hedged_subset",
                None,
                "Typically, Gold frequent flyers don't pay for one extra 23 kg bag; for other passengers an additional bag on a flight within Europe is EUR 60 online or EUR 90 at the airport. (source: Baggage_Policy_2025.pdf, p. 2)",
            ),
            (
                "halluc_number",
                "fail",
                "An additional bag on a flight within Europe costs EUR 60 online (at least 24 hours before departure) or EUR 80 at the airport. Overweight bags of 23–32 kg cost EUR 75 per bag per flight. (Source: Baggage_Policy_2025.pdf)",
            ),
            (
                "halluc_time_shift",
                "fail",
                "An extra bag costs EUR 60 if purchased online at least 48 hours before departure, or EUR 90 at the airport; overweight bags (23–32 kg) are EUR 75 per bag per flight. [1]",
            ),
            (
                "halluc_entity_swap",
                None,
                "An extra bag is EUR 60 online or EUR 90 at the airport, and overweight bags cost EUR 75 per bag per flight. Frequent flyer Silver members receive one extra 23 kg bag free of charge. (Source: Baggage_Policy_2025.pdf)",
            ),
            (
                "halluc_bracket_aside",
                None,
                "An additional bag costs EUR 60 online (non-refundable once purchased) if bought at least 24 hours before departure, or EUR 90 at the airport. Overweight bags of 23–32 kg cost EUR 75 per bag per flight. [1]",
            ),
        ],
    ),
    dict(
        id="av-e2",
        domain=D,
        lang="en",
        doc="Baggage_Policy_2025.pdf",
        loc="p. 1",
        ctx=BAG_CTX,
        ct="composite",
        value=32.0,
        unit="kg",
        q="What checked baggage allowance comes with a Business fare?",
        ref="Business includes 2 checked bags of up to 32 kg each, with a maximum of 158 cm (length + width + height) per bag.",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "Weight per bag: 32 kg\n\nBusiness fares include 2 checked bags, each up to 32 kg, and no bag may exceed 158 cm (length + width + height). (Source: Baggage_Policy_2025.pdf)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "32 kg",
                {
                    "narrative_answer": "Business class passengers can check 2 bags of up to 32 kg each. For comparison, Economy Classic includes 1 bag of up to 23 kg and Economy Saver includes none."
                },
            ),
            (
                "faithful_meta_table",
                "pass",
                "Based on the retrieved documents:\n\n| Fare | Checked bags |\n|---|---|\n| Economy Saver | none |\n| Economy Classic | 1 bag, up to 23 kg |\n| Business | 2 bags, up to 32 kg each |\n\nAll bags: at most 158 cm in total dimensions. [1]",
            ),
            (
                "halluc_number",
                "fail",
                "Weight per bag: 32 kg\n\nBusiness fares include 3 checked bags of up to 32 kg each, each no larger than 158 cm in total. (Source: Baggage_Policy_2025.pdf)",
            ),
            (
                "halluc_negation",
                None,
                "Weight per bag: 32 kg\nBusiness includes 2 bags of up to 32 kg each (158 cm maximum). Bags over 32 kg can still be checked in for an additional fee. [1]",
            ),
            (
                "halluc_narrative_added",
                None,
                "32 kg",
                {
                    "narrative_answer": "Business includes 2 bags of up to 32 kg each, with a 158 cm size limit per bag. Business passengers also get priority baggage delivery on arrival."
                },
            ),
        ],
    ),
    dict(
        id="av-e3",
        domain=D,
        lang="en",
        doc="Baggage_Policy_2025.pdf",
        loc="p. 2",
        ctx=BAG_CTX,
        q="What is the fee for carrying a small pet in the cabin?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved baggage policy does not mention pets, so I can't tell you the fee from these documents.",
            ),
            (
                "refusal_fab_amount",
                1,
                "The baggage excerpts don't cover pets. Many European carriers charge around EUR 55 per flight for a small pet in the cabin, but please confirm with the airline.",
            ),
            (
                "refusal_context_numbers",
                0,
                "I couldn't find a pet fee. The retrieved policy only lists other charges, such as EUR 50 per flight for bicycles and EUR 75 for overweight bags.",
            ),
        ],
    ),
    dict(
        id="av-z1",
        domain=D,
        lang="zh",
        doc="国内运输总条件.pdf",
        loc="第3页",
        ctx=CN_BAG_CTX,
        q="国内航班经济舱免费托运多少行李？超重怎么收费？",
        ref="经济舱免费托运行李额为20公斤；超出部分每公斤按经济舱公布票价的1.5%收取逾重行李费。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "国内航班经济舱可以免费托运20公斤行李。超过的部分，每公斤按经济舱公布票价的1.5%收取逾重行李费。（来源：国内运输总条件.pdf）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n- 经济舱免费托运行李额：20公斤\n- 逾重行李费：每公斤按经济舱公布票价的1.5%计收\n- 每件托运行李不超过50公斤\n[1]",
            ),
            (
                "faithful_combine_dash",
                "pass",
                "经济舱免费行李额为20公斤，公务舱30公斤，头等舱40公斤。超出免费额度的部分，每公斤收取经济舱公布票价的1.5%。按婴儿票价购票的旅客没有免费行李额，不过可以免费托运一辆折叠式婴儿车。— 国内运输总条件.pdf",
            ),
            (
                "faithful_source_para",
                "pass",
                "经济舱旅客的免费托运额度是20公斤，超重部分每公斤收取经济舱公布票价的1.5%。\n\nSource: 国内运输总条件.pdf #para1",
            ),
            (
                "halluc_number",
                "fail",
                "经济舱免费托运行李额为20公斤，超出部分每公斤按经济舱公布票价的2%收取逾重行李费。（来源：国内运输总条件.pdf）",
            ),
            (
                "halluc_entity_swap",
                None,
                "经济舱可免费托运20公斤，超出部分每公斤按头等舱公布票价的1.5%收取逾重行李费。[1]",
            ),
            (
                "halluc_negation",
                None,
                "经济舱免费托运20公斤，超出部分每公斤按经济舱公布票价的1.5%收费。按婴儿票价购票的旅客同样享有20公斤免费行李额。（来源：国内运输总条件.pdf）",
            ),
            (
                "halluc_added_sentence",
                None,
                "经济舱免费托运行李额为20公斤，超重部分每公斤按经济舱公布票价的1.5%收费。常旅客会员可额外享受10公斤免费行李额。[1]",
            ),
        ],
    ),
    dict(
        id="av-z2",
        domain=D,
        lang="zh",
        doc="国内运输总条件.pdf",
        loc="第4页",
        ctx=CN_BAG_CTX,
        ct="composite",
        value=5.0,
        unit="公斤",
        q="经济舱旅客的随身行李有什么限制？",
        ref="经济舱旅客每人可随身携带1件物品，重量不超过5公斤。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "重量上限：5公斤\n经济舱旅客每人可随身携带1件物品，重量不超过5公斤。（来源：国内运输总条件.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "5公斤",
                {
                    "narrative_answer": "经济舱每人限带1件随身物品，不超过5公斤；头等舱和公务舱每人可带2件，每件同样不超过5公斤。"
                },
            ),
            (
                "faithful_hedged_value",
                "pass",
                "数值：5 公斤\n一般来说，经济舱旅客只能随身携带1件物品，重量不能超过5公斤。[1]",
            ),
            (
                "halluc_number",
                "fail",
                "重量上限：5公斤\n经济舱旅客每人可随身携带2件物品，每件重量不超过5公斤。（来源：国内运输总条件.pdf）",
            ),
            (
                "halluc_unit",
                None,
                "经济舱旅客每人可随身携带1件物品，重量不超过5磅。（来源：国内运输总条件.pdf）",
            ),
            (
                "halluc_narrative_added",
                None,
                "5公斤",
                {
                    "narrative_answer": "经济舱每人可随身携带1件物品，不超过5公斤，尺寸不超过20×40×55厘米。"
                },
            ),
        ],
    ),
    dict(
        id="av-z3",
        domain=D,
        lang="zh",
        doc="国内运输总条件.pdf",
        loc="第3页",
        ctx=CN_BAG_CTX,
        q="国际航班经济舱的免费行李额是多少？",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "检索到的条款只涉及国内航班，没有说明国际航班的免费行李额，无法回答。",
            ),
            (
                "refusal_fab_two_amounts",
                2,
                "文档只涉及国内航班。国际航班经济舱通常每件限重23公斤，超重费约每件600元，请以航空公司公布为准。",
            ),
        ],
    ),
]
