D = "university_admissions"
ADM_CTX = [
    "Entry requirements. Applicants to the BSc Computer Science must hold A-levels at AAA including Mathematics, or an IB Diploma with 36 points overall including 6 in Higher Level Mathematics. Further Mathematics is desirable but not required. Applicants taking a foundation year must achieve an overall 70% with at least 65% in each module.",
    "English language. Applicants whose first language is not English need IELTS 6.5 overall with no component below 6.0, or TOEFL iBT 92 with at least 21 in each section. Test results are valid for 2 years from the test date. Applicants who completed a full degree taught in English within the last 5 years are exempt.",
    "Deadlines. The UCAS equal-consideration deadline is 29 January 2025 at 18:00 UK time. Applications received after that date are considered only if places remain. Offer holders must reply by 4 June 2025.",
]
KY_CTX = [
    "复试基本分数线：2025年我校学术学位硕士工学类考生总分不低于273分，单科（满分=100分）不低于38分，单科（满分>100分）不低于57分。少数民族骨干计划考生总分不低于247分。",
    "调剂要求：调剂考生初试成绩须达到我校复试基本分数线，且第一志愿报考专业与调入专业相同或相近，初试统考科目与调入专业初试科目相同或相近。调剂系统开放时间不少于12小时，考生确认复试通知后不得再修改志愿。",
    "复试采用差额形式，差额比例不低于120%。复试成绩不及格（低于60分）者不予录取。总成绩=初试成绩/5×60%+复试成绩×40%。",
]

SCENARIOS = [
    dict(
        id="adm-e1",
        domain=D,
        lang="en",
        doc="CS_Admissions_2025.pdf",
        loc="p. 4",
        ctx=ADM_CTX,
        q="What English language scores are required for non-native speakers, and who is exempt?",
        ref="IELTS 6.5 overall with no component below 6.0, or TOEFL iBT 92 with at least 21 in each section; applicants who completed a full English-taught degree within the last 5 years are exempt.",
        variants=[
            (
                "faithful_source_paren",
                "pass",
                "Non-native speakers need either IELTS 6.5 overall (no component under 6.0) or TOEFL iBT 92 with 21 or more in each section. You are exempt if you completed a full degree taught in English within the last 5 years. (Source: CS_Admissions_2025.pdf, p. 4)",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "Based on the retrieved documents:\n\n- IELTS: 6.5 overall, no component below 6.0\n- TOEFL iBT: 92, at least 21 in each section\n- Results are valid for 2 years from the test date\n- Exempt: applicants who completed a full English-taught degree in the last 5 years\n\n[^1]",
            ),
            (
                "faithful_echo_question",
                "pass",
                "What English language scores are required for non-native speakers, and who is exempt?\n\nIELTS 6.5 (at least 6.0 in every component) or TOEFL iBT 92 (at least 21 per section). Applicants who finished a full English-taught degree within the past 5 years are exempt from this requirement. — CS_Admissions_2025.pdf",
            ),
            (
                "faithful_subset_hash",
                None,
                "English test results remain valid for 2 years from the date of the test. #para2",
            ),
            (
                "halluc_number",
                "fail",
                "You need IELTS 6.5 overall with no component below 6.0, or TOEFL iBT 90 with at least 21 in each section. Applicants who completed a full English-taught degree within the last 5 years are exempt. (Source: CS_Admissions_2025.pdf)",
            ),
            (
                "halluc_time_shift",
                "fail",
                "IELTS 6.5 overall (minimum 6.0 per component) or TOEFL iBT 92 (minimum 21 per section) is required; applicants who completed a full degree taught in English within the last 3 years are exempt. [1]",
            ),
            (
                "halluc_quantifier_widened",
                None,
                "IELTS 6.5 overall with no component below 6.0, or TOEFL iBT 92 with at least 21 per section. Anyone who has studied in English at any point is exempt. (Source: CS_Admissions_2025.pdf)",
            ),
            (
                "halluc_added_sentence",
                None,
                "Non-native speakers need IELTS 6.5 (no component below 6.0) or TOEFL iBT 92 (21 in each section). Applicants who completed an English-taught degree within the last 5 years are exempt, and nationals of majority English-speaking countries are also exempt. [1]",
            ),
        ],
    ),
    dict(
        id="adm-e2",
        domain=D,
        lang="en",
        doc="CS_Admissions_2025.pdf",
        loc="p. 2",
        ctx=ADM_CTX,
        ct="composite",
        value=36.0,
        unit="points",
        q="How many IB points are needed for BSc Computer Science?",
        ref="An IB Diploma with 36 points overall including 6 in Higher Level Mathematics (the A-level alternative is AAA including Mathematics).",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "IB requirement: 36 points\n\nYou need an IB Diploma with 36 points overall, including 6 in Higher Level Mathematics. The A-level alternative is AAA including Mathematics. (Source: CS_Admissions_2025.pdf)",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "36 points",
                {
                    "narrative_answer": "The IB requirement is 36 points overall, with 6 in Higher Level Mathematics. Further Mathematics is desirable but not required."
                },
            ),
            (
                "faithful_value_reformatted",
                "pass",
                "Value: 36.0 points\nIB Diploma: 36 points in total, including 6 in HL Mathematics [1].",
            ),
            (
                "halluc_number",
                "fail",
                "IB requirement: 36 points\n\nAn IB Diploma with 36 points overall including 7 in Higher Level Mathematics, or A-levels AAA including Mathematics. (Source: CS_Admissions_2025.pdf)",
            ),
            (
                "halluc_negation",
                None,
                "IB requirement: 36 points\nYou need 36 points including 6 in HL Mathematics; A-level applicants need AAA including Mathematics, and Further Mathematics is required. [1]",
            ),
            (
                "halluc_narrative_added",
                None,
                "36 points",
                {
                    "narrative_answer": "You need 36 points overall including 6 in Higher Level Mathematics. Applicants with 35 points may still be considered after an interview."
                },
            ),
        ],
    ),
    dict(
        id="adm-e3",
        domain=D,
        lang="en",
        doc="CS_Admissions_2025.pdf",
        loc="p. 4",
        ctx=ADM_CTX,
        q="What is the annual tuition fee for international students on the BSc Computer Science?",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "The retrieved pages cover entry requirements, English language and deadlines, but not tuition fees, so I can't answer this from the documents.",
            ),
            (
                "refusal_fab_amount_period",
                1,
                "The documents don't list fees. For 2025/26, international fees for computing degrees are typically around £38,000 per year, but please check the university's fees page.",
            ),
        ],
    ),
    dict(
        id="adm-z1",
        domain=D,
        lang="zh",
        doc="2025年硕士复试录取办法.pdf",
        loc="第2页",
        ctx=KY_CTX,
        q="工学类学术硕士的复试分数线是多少？",
        ref="总分不低于273分，单科（满分=100分）不低于38分，单科（满分>100分）不低于57分。",
        variants=[
            (
                "faithful_source_cn_paren",
                "pass",
                "工学类学术学位硕士的复试线为：总分273分及以上，满分为100分的科目不低于38分，满分超过100分的科目不低于57分。（来源：2025年硕士复试录取办法.pdf）",
            ),
            (
                "faithful_meta_bullets",
                "pass",
                "根据检索到的文档：\n- 总分：不低于273分\n- 单科（满分=100分）：不低于38分\n- 单科（满分>100分）：不低于57分\n[1]",
            ),
            (
                "faithful_combine",
                "pass",
                "工学类学硕总分需达到273分，满分100分的单科不低于38分，满分大于100分的单科不低于57分；少数民族骨干计划考生的总分线为247分。(source: 2025年硕士复试录取办法.pdf, p. 2)",
            ),
            (
                "faithful_echo_question",
                "pass",
                "问：工学类学术硕士的复试分数线是多少？\n答：总分不低于273分；单科（满分100分）不低于38分，单科（满分超过100分）不低于57分。#para1",
            ),
            (
                "halluc_number",
                "fail",
                "工学类学术学位硕士复试基本分数线：总分不低于283分，单科（满分=100分）不低于38分，单科（满分>100分）不低于57分。（来源：2025年硕士复试录取办法.pdf）",
            ),
            (
                "halluc_swap",
                "fail",
                "总分不低于273分；单科（满分=100分）不低于57分，单科（满分>100分）不低于38分。[1]",
            ),
            (
                "halluc_added_sentence",
                None,
                "工学类学硕复试线为总分273分，百分制单科38分，满分超过100分的单科57分。专业学位考生可在此基础上降低10分。（来源：2025年硕士复试录取办法.pdf）",
            ),
            (
                "halluc_bracket_aside",
                None,
                "总分不低于273分（较去年上涨5分），单科（满分=100分）不低于38分，单科（满分>100分）不低于57分。[1]",
            ),
        ],
    ),
    dict(
        id="adm-z2",
        domain=D,
        lang="zh",
        doc="2025年硕士复试录取办法.pdf",
        loc="第3页",
        ctx=KY_CTX,
        ct="composite",
        value=120.0,
        unit="%",
        q="复试差额比例是多少？复试不及格还能录取吗？",
        ref="差额比例不低于120%；复试成绩不及格（低于60分）者不予录取。",
        variants=[
            (
                "faithful_composite_value",
                "pass",
                "差额比例：120%\n复试采用差额形式，比例不低于120%；复试成绩低于60分即为不及格，不予录取。（来源：2025年硕士复试录取办法.pdf）",
            ),
            (
                "faithful_narrative_answer",
                "pass",
                "120%",
                {
                    "narrative_answer": "复试差额比例不低于120%。复试不及格（低于60分）的考生不予录取。总成绩按初试成绩/5×60%加复试成绩×40%计算。"
                },
            ),
            (
                "faithful_hedged_value",
                "pass",
                "数值：120 %\n复试差额比例通常不低于120%；复试成绩不到60分的考生不予录取。[1]",
            ),
            (
                "halluc_negation",
                "fail",
                "差额比例：120%\n复试差额比例不低于120%。复试成绩不及格（低于60分）者经导师同意仍可录取。（来源：2025年硕士复试录取办法.pdf）",
            ),
            (
                "halluc_number",
                "fail",
                "差额比例：120%\n差额比例不低于120%，复试成绩低于70分为不及格，不予录取。[1]",
            ),
            (
                "halluc_narrative_swap",
                None,
                "120%",
                {
                    "narrative_answer": "差额比例不低于120%，复试不及格（低于60分）不予录取。总成绩=初试成绩/5×40%+复试成绩×60%。"
                },
            ),
        ],
    ),
    dict(
        id="adm-z3",
        domain=D,
        lang="zh",
        doc="2025年硕士复试录取办法.pdf",
        loc="第1页",
        ctx=KY_CTX,
        q="你校2025年计算机专业计划录取多少人？",
        ref="",
        variants=[
            (
                "refusal_clean",
                0,
                "检索到的文档只规定了复试分数线、调剂要求和复试规则，没有给出计算机专业的录取人数。",
            ),
            (
                "refusal_fab_amount_periods",
                1,
                "文档没有给出录取人数。据往年情况，计算机专业每年录取约85人，2023-2024年基本持平，请以研招网公布为准。",
            ),
        ],
    ),
]
